/** Renders the OpenAPI document as one self-contained HTML page (no assets from the network). */
function esc(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

interface Op {
  summary?: string;
  tags?: string[];
  security?: unknown[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
}

export function renderDocs(doc: Record<string, unknown>): string {
  const info = doc.info as { title: string; version: string; description: string };
  const paths = doc.paths as Record<string, Record<string, Op>>;
  const sections: string[] = [];
  for (const [path, ops] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const body = op.requestBody
        ? Object.entries(op.requestBody.content)
            .map(
              ([type, c]) =>
                `<h4>Request body (${esc(type)})</h4><pre>${esc(JSON.stringify(c.schema, null, 2))}</pre>`,
            )
            .join("")
        : "";
      const responses = Object.entries(op.responses)
        .map(([status, r]) => `<li><b>${esc(status)}</b> ${esc(r.description)}</li>`)
        .join("");
      sections.push(
        `<section><h3><code>${esc(method.toUpperCase())} ${esc(path)}</code></h3>` +
          `<p>${esc(op.summary ?? "")}${op.security ? " <em>(Bearer token)</em>" : ""}</p>` +
          `${body}<h4>Responses</h4><ul>${responses}</ul></section>`,
      );
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(info.title)}</title>
<style>body{font:14px system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}
section{border-top:1px solid #ccc;padding:.5rem 0}pre{background:#f4f4f4;padding:.5rem;overflow:auto;max-height:20rem}</style>
</head><body><h1>${esc(info.title)}</h1><p>Version ${esc(info.version)}. ${esc(info.description)}
Machine-readable: <a href="/openapi.json">/openapi.json</a>. Errors: <code>{status, code, message, errors[{path, message}]}</code>.</p>
${sections.join("\n")}</body></html>`;
}
