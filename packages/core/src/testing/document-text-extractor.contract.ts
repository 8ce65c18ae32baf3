import { afterAll, describe, expect, it } from "vitest";
import type { DocumentFile, DocumentTextExtractor } from "../ports/document-text.port.ts";

/** A document of a kind the extractor reads, and words its text must hold. */
export interface DocumentSample {
  readonly file: DocumentFile;
  readonly content: Uint8Array;
  readonly words: readonly string[];
}

export interface DocumentTextExtractorContractOptions {
  /** Documents of every kind the extractor reads: one at least. */
  readonly samples: readonly DocumentSample[];
  /** A file of a kind it reads that is past its bounds (a decompression bomb, too many bytes): it must be refused. */
  readonly pastBounds?: { readonly file: DocumentFile; readonly content: Uint8Array };
}

/**
 * The behaviour every DocumentTextExtractor shares: it claims the kinds it reads and nothing it
 * cannot name, reads each sample's words, keeps files apart when reading several at once, leaves
 * the bytes it is given as they were, and refuses what it cannot read (garbage, a file past its
 * bounds, a kind it does not handle) by rejecting, and goes on reading. `create` is called once;
 * a `close` it has is called after the suite.
 * @example
 * documentTextExtractorContract("pdf", () => createPdfTexts(), { samples: [{ file: PDF, content: pdfWith("geyser"), words: ["geyser"] }] });
 */
export function documentTextExtractorContract(
  name: string, create: () => DocumentTextExtractor & { close?(): Promise<void> }, options: DocumentTextExtractorContractOptions,
): void {
  describe(`DocumentTextExtractor contract: ${name}`, () => {
    const extractor = create();
    afterAll(() => extractor.close?.());
    const { samples } = options;
    const UNKNOWN: DocumentFile = { name: "data.unknown-kind", mime: "application/x-unknown-kind" };

    it("claims every sample's kind, and a file it cannot name it does not", () => {
      expect(samples.length).toBeGreaterThan(0);
      for (const { file } of samples) expect(extractor.handles(file), file.name).toBe(true);
      expect(extractor.handles(UNKNOWN)).toBe(false);
    });

    it("reads each sample's words", async () => {
      for (const { file, content, words } of samples) {
        const text = await extractor.extract(file, content);
        expect(typeof text).toBe("string");
        for (const word of words) expect(text, file.name).toContain(word);
      }
    });

    it("reads several files at once, each its own text", async () => {
      const texts = await Promise.all([...samples, ...samples].map(({ file, content }) => extractor.extract(file, content)));
      texts.forEach((text, i) => {
        const sample = samples[i % samples.length];
        for (const word of sample?.words ?? []) expect(text, sample?.file.name).toContain(word);
      });
    });

    it("leaves the bytes it is given as they were", async () => {
      for (const { file, content } of samples) {
        const copy = content.slice();
        await extractor.extract(file, content);
        expect(content).toEqual(copy);
      }
    });

    it("refuses garbage of each kind, a file past its bounds and a kind it does not handle, then reads on", async () => {
      const garbage = new TextEncoder().encode("this is no document at all \u0000\u0001\u0002");
      for (const { file } of samples) await expect(extractor.extract(file, garbage), file.name).rejects.toThrow();
      if (options.pastBounds) await expect(extractor.extract(options.pastBounds.file, options.pastBounds.content)).rejects.toThrow();
      await expect(extractor.extract(UNKNOWN, garbage)).rejects.toThrow();
      const [first] = samples;
      if (first) for (const word of first.words) expect(await extractor.extract(first.file, first.content)).toContain(word);
    });
  });
}
