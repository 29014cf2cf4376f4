/**
 * What a carrier served (docs/decisions.md#carrier-label-formats): the format named by its
 * `Content-Type`, checked against the content's own first bytes, so an error page served as
 * `image/png` or a PDF labelled `text/html` is refused in words instead of printed. Pure.
 */
import type { LabelFormat } from "../devices/drivers/label-printer/label-printer.js";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The media types each format is served as; `application/octet-stream` is judged by the content alone. */
const TYPES: Record<string, LabelFormat> = {
  "application/pdf": "pdf",
  "application/x-pdf": "pdf",
  "image/png": "png",
  "application/zpl": "zpl",
  "application/x-zpl": "zpl",
  "text/zpl": "zpl",
  "text/x-zpl": "zpl",
  "x-application/zpl": "zpl",
  "text/plain": "zpl",
};

const NAMES: Record<LabelFormat, string> = { pdf: "a PDF", png: "a PNG", zpl: "ZPL" };

/** What the bytes are, by their start: a PDF, a PNG, ZPL, HTML, or unknown. */
export function sniff(bytes: Uint8Array): LabelFormat | "html" | undefined {
  if (PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return "png";
  // a PDF's header is within its first 1024 bytes (ISO 32000-1 §7.5.2 lets readers look that far)
  const head = Buffer.from(bytes.subarray(0, 1024)).toString("latin1");
  if (head.includes("%PDF-")) return "pdf";
  const text = head.replace(/^\uFEFF|^\xEF\xBB\xBF/, "").trimStart();
  // ZPL starts with a format (`^XA`) or a control command (`~DG`, `~JA`, …: a tilde and a letter)
  if (/^(\^XA|~[A-Z])/i.test(text) && !/\0/.test(text)) return "zpl";
  if (/^<(!doctype html|html|head|body|\?xml)/i.test(text)) return "html";
  return undefined;
}

/** The media type of a `Content-Type` header, lower case, without its parameters. */
export const mediaType = (contentType: string | undefined): string =>
  (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";

/**
 * The format of a carrier's answer, or why it is not a label: the type must be one of a label's (or
 * `application/octet-stream`) and the content must be what the type says.
 */
export function carrierLabelFormat(
  contentType: string | undefined,
  bytes: Uint8Array,
): { format: LabelFormat } | { refused: string } {
  const type = mediaType(contentType);
  const content = sniff(bytes);
  const named = TYPES[type];
  if (type === "application/octet-stream") {
    if (content === "pdf" || content === "png" || content === "zpl") return { format: content };
    return { refused: "the carrier served application/octet-stream that is neither a PDF, a PNG nor ZPL" };
  }
  if (!named) return { refused: `the carrier served ${type || "no Content-Type"}, not a label` };
  if (content === named) return { format: named };
  const what = content === "html" ? "HTML" : content ? NAMES[content] : "not a label";
  return {
    refused: `the carrier served ${type} that is ${what === "not a label" ? what : `${what}, not ${NAMES[named]}`}`,
  };
}
