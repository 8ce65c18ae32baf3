import { describe, expect, it } from "vitest";
import { isLineageError } from "@lineage/core";
import { createJimpProcessor } from "../src/jimp-processor.ts";
import { bandedImage } from "../src/testing/image-fixtures.ts";
import { imageProcessorContract } from "@lineage/core/testing";

imageProcessorContract("jimp in worker threads", () => createJimpProcessor({ workers: 2 }));

describe("jimp processor: the bounded queue", () => {
  it("refuses a resize with IMAGE0002 (503) when maxQueue resizes already wait, and takes more once they are done", async () => {
    const processor = createJimpProcessor({ workers: 1, maxQueue: 1 });
    try {
      const source = await bandedImage(300, 200, "png");
      // Once the worker is up, one resize runs, one waits, and the rest are refused at once.
      await processor.transform(source, { keep: false, width: 10, height: 10 }, "png");
      const settled = await Promise.allSettled([20, 30, 40, 50].map((width) => processor.transform(source, { keep: false, width, height: 10 }, "png")));
      expect(settled.map((result) => result.status)).toEqual(["fulfilled", "fulfilled", "rejected", "rejected"]);
      for (const result of settled) {
        if (result.status === "rejected") expect([isLineageError(result.reason), result.reason.code, result.reason.status]).toEqual([true, "IMAGE0002", 503]);
      }
      await expect(processor.transform(source, { keep: false, width: 60, height: 10 }, "png")).resolves.toBeInstanceOf(Uint8Array);
      expect(processor.computations).toBe(4);
    } finally {
      await processor.close();
    }
  });
});
