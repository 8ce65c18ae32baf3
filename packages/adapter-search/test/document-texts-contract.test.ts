import { documentTextExtractorContract } from "@lineage/core/testing";
import { createDocumentTexts } from "../src/index.ts";
import { docxWith, odtBomb, odtWith, pdfWith } from "../src/testing/document-fixtures.ts";

const ODT = { name: "minutes.odt", mime: "application/vnd.oasis.opendocument.text" };

documentTextExtractorContract("PDF, DOCX and ODT in worker threads", () => createDocumentTexts({ timeoutMs: 10_000, maxBytes: 1024 * 1024 }), {
  samples: [
    { file: { name: "report.pdf", mime: "application/pdf" }, content: pdfWith("The geyser erupted twice"), words: ["geyser", "erupted"] },
    { file: { name: "letter.docx", mime: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" }, content: docxWith("Dear colleagues,", "the turbine is ready."), words: ["colleagues", "turbine"] },
    { file: ODT, content: odtWith("Minutes", "Budget approved"), words: ["Minutes", "Budget approved"] },
  ],
  pastBounds: { file: ODT, content: odtBomb(2 * 1024 * 1024) },
});
