/**
 * The screen page's markup (src/station/screen/page/index.html) nests as written: every element closes in
 * order, and each dialog overlay is a child of the body. A browser forgives an unclosed element by nesting
 * what follows inside it, so one lost closing tag hid the numpad, the supervisor's prompt and the pause
 * inside the hidden language chooser (docs/station.md#operator-screen).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const PAGE = new URL("../../../../src/station/screen/page/index.html", import.meta.url);
/** Elements without a closing tag (HTML's void elements). */
const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);

interface Node {
  tag: string;
  id: string | null;
  overlay: boolean;
  parent: string;
}

/** The elements with their parent, in order; throws naming the line of a closing tag that does not match. */
function elements(html: string): { nodes: Node[]; open: string[] } {
  const stack: string[] = [];
  const nodes: Node[] = [];
  const source = html.replace(/<!--[\s\S]*?-->/g, "");
  for (const m of source.matchAll(/<(\/?)([a-zA-Z][\w-]*)([^>]*)>/g)) {
    const [, closing, name, attrs] = m;
    const tag = (name as string).toLowerCase();
    const line = source.slice(0, m.index).split("\n").length;
    if (closing) {
      const top = stack.pop();
      if (top === undefined || top.split("#")[0] !== tag)
        throw new Error(`line ${line}: </${tag}> closes ${top ?? "nothing"}`);
      continue;
    }
    const id = /\bid="([^"]+)"/.exec(attrs as string)?.[1] ?? null;
    const overlay = /\bclass="[^"]*\boverlay\b/.test(attrs as string);
    nodes.push({ tag, id, overlay, parent: stack.at(-1) ?? "" });
    if (!VOID.has(tag) && !(attrs as string).trim().endsWith("/")) stack.push(id ? `${tag}#${id}` : tag);
  }
  return { nodes, open: stack };
}

describe("the screen page's markup", () => {
  const html = readFileSync(PAGE, "utf8");

  it("closes every element in order", () => {
    expect(elements(html).open).toEqual([]);
  });

  it("puts every dialog overlay directly in the body", () => {
    const overlays = elements(html).nodes.filter((n) => n.overlay);
    expect(overlays.length).toBeGreaterThan(1);
    expect(overlays.filter((n) => n.parent !== "body").map((n) => `${n.id} in ${n.parent}`)).toEqual([]);
  });

  it("the check finds an overlay left inside another", () => {
    const broken = html.replace(/(<div id="language-bar"[^>]*><\/div>\s*<\/div>)\s*<\/div>/, "$1");
    expect(broken).not.toBe(html);
    const { nodes } = elements(broken.replace("</body>", "</div></body>"));
    expect(nodes.find((n) => n.id === "numpad")?.parent).toBe("div#language");
  });
});
