/** `@lineage/adapter-search/testing`: small real documents (PDF, DOCX, ODT, an ODT bomb) for the text extractors. */
export { docxWith, odtBomb, odtWith, pdfWith } from "./document-fixtures.ts";
