import { strToU8, zipSync } from "fflate";

/** A one-page PDF showing `text` (Helvetica), with a correct cross-reference table. */
export function pdfWith(text: string): Uint8Array {
  const escaped = text.replace(/[\\()]/g, (c) => `\\${c}`);
  const stream = `BT /F1 12 Tf 72 720 Td (${escaped}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return strToU8(body);
}

/** A DOCX (the least Word needs) with one paragraph per line of `paragraphs`. */
export function docxWith(...paragraphs: string[]): Uint8Array {
  const ns = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
  const runs = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${p}</w:t></w:r></w:p>`).join("");
  return zipSync({
    "[Content_Types].xml": strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    "_rels/.rels": strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    "word/document.xml": strToU8(`<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${ns}"><w:body>${runs}</w:body></w:document>`),
  });
}

/** An ODT whose content.xml holds a heading and paragraphs (with a tab, a space run and an entity). */
export function odtWith(heading: string, ...paragraphs: string[]): Uint8Array {
  const ns = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"';
  const body = `<text:h text:outline-level="1">${heading}</text:h>${paragraphs.map((p) => `<text:p>${p}</text:p>`).join("")}`;
  return zipSync({
    mimetype: strToU8("application/vnd.oasis.opendocument.text"),
    "content.xml": strToU8(`<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ns}><office:body><office:text>${body}</office:text></office:body></office:document-content>`),
  });
}

/** A zip whose content.xml inflates to `bytes` bytes of spaces: a bomb for a small bound. */
export function odtBomb(bytes: number): Uint8Array {
  return zipSync({ "content.xml": new Uint8Array(bytes).fill(32) }, { level: 9 });
}
