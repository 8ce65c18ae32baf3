// The task of a document-text worker thread, run by piscina (plain JavaScript, so it loads the same
// under node, tsx and vitest). In: { kind: "pdf" | "docx" | "odt", content: Uint8Array, maxBytes };
// out: the document's text. A document that cannot be read rejects the task.
import { strFromU8, unzipSync } from "fflate";
import mammoth from "mammoth";
import { extractText, getDocumentProxy } from "unpdf";

const ENTITIES = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** The text of an ODT's content.xml: paragraphs and headings on their lines, tabs and spaces kept. */
function odtText(xml) {
  return xml
    .replace(/<text:(?:tab|s)\b[^>]*\/>/g, " ")
    .replace(/<text:line-break\/>|<\/text:(?:p|h)>/g, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&(?:#(\d+)|#x([0-9a-f]+)|(\w+));/gi, (whole, dec, hex, name) =>
      dec ? String.fromCodePoint(Number(dec)) : hex ? String.fromCodePoint(parseInt(hex, 16)) : (ENTITIES[name] ?? whole));
}

export default async function extract({ kind, content, maxBytes }) {
  if (kind === "pdf") {
    return (await extractText(await getDocumentProxy(content), { mergePages: true })).text;
  }
  if (kind === "docx") {
    const { value } = await mammoth.extractRawText({ buffer: Buffer.from(content.buffer, content.byteOffset, content.byteLength) });
    return value;
  }
  if (kind === "odt") {
    // Sizes come from the zip's directory: a content.xml inflating past the bound is refused before it is inflated.
    const files = unzipSync(content, {
      filter: (file) => {
        if (file.name !== "content.xml") return false;
        if (file.originalSize > maxBytes) throw new Error(`content.xml inflates to ${file.originalSize} bytes, more than ${maxBytes}`);
        return true;
      },
    });
    const xml = files["content.xml"];
    if (!xml) throw new Error("no content.xml: not an OpenDocument text");
    return odtText(strFromU8(xml));
  }
  throw new Error(`no reader for "${kind}"`);
}
