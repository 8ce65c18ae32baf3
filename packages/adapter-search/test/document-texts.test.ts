import { strToU8 } from "fflate";
import { afterAll, describe, expect, it } from "vitest";
import { createDocumentTexts, documentKind } from "../src/index.ts";
import { docxWith, odtBomb, odtWith, pdfWith } from "../src/testing/document-fixtures.ts";

// Issue 19, item 12: the text of PDF, DOCX and ODT files, read in worker threads bounded in
// time, heap and size; a document that cannot be read is refused (the index marks it K).

const documents = createDocumentTexts({ timeoutMs: 10_000, maxBytes: 1024 * 1024 });
afterAll(() => documents.close());

const PDF = { name: "report.pdf", mime: "application/pdf" };
const DOCX = { name: "letter.docx", mime: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" };
const ODT = { name: "minutes.odt", mime: "application/vnd.oasis.opendocument.text" };

describe("document texts", () => {
  it("tells the documents it reads by mime type, else by name", () => {
    expect([PDF, DOCX, ODT].map(documentKind)).toEqual(["pdf", "docx", "odt"]);
    expect(documentKind({ name: "scan.PDF", mime: "application/octet-stream" })).toBe("pdf");
    expect(documentKind({ name: "notes.txt", mime: "text/plain" })).toBeUndefined();
    expect(documents.handles({ name: "photo.png", mime: "image/png" })).toBe(false);
  });

  it("reads a PDF, a DOCX and an ODT", async () => {
    expect(await documents.extract(PDF, pdfWith("The geyser erupted (twice)"))).toContain("The geyser erupted (twice)");
    expect(await documents.extract(DOCX, docxWith("Dear colleagues,", "the turbine is ready."))).toBe("Dear colleagues,\n\nthe turbine is ready.\n\n");
    expect(await documents.extract(ODT, odtWith("Minutes", "Budget<text:tab/>approved &amp; signed", "Next<text:s text:c=\"3\"/>meeting"))).toBe(
      "Minutes\nBudget approved & signed\nNext meeting\n",
    );
  });

  it("refuses what it cannot read, and a document past its bounds, and keeps reading the next ones", async () => {
    await expect(documents.extract(PDF, strToU8("%PDF-1.4 this is no pdf"))).rejects.toThrow();
    await expect(documents.extract(DOCX, strToU8("not a zip"))).rejects.toThrow();
    await expect(documents.extract(ODT, odtBomb(2 * 1024 * 1024))).rejects.toThrow(/more than 1048576/);
    await expect(documents.extract(PDF, new Uint8Array(1024 * 1024 + 1))).rejects.toThrow(/more than 1048576/);
    await expect(documents.extract({ name: "a.txt", mime: "text/plain" }, strToU8("x"))).rejects.toThrow(/no PDF, DOCX or ODT/);
    expect(await documents.extract(ODT, odtWith("Still", "reading"))).toBe("Still\nreading\n");
  });

  it("stops a worker that takes longer than its time, and the pool goes on", async () => {
    const hasty = createDocumentTexts({ timeoutMs: 1 });
    try {
      await expect(hasty.extract(PDF, pdfWith("slow"))).rejects.toThrow();
    } finally {
      await hasty.close();
    }
    expect(await documents.extract(PDF, pdfWith("after"))).toContain("after");
  });
});
