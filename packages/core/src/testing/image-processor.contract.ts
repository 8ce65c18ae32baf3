import { afterAll, describe, expect, it } from "vitest";
import { readImageHeader } from "../images/image-header.ts";
import type { ImageProcessor } from "../ports/image-processor.port.ts";
import { bandedImage, pixel } from "./image-samples.ts";

/** Close to a colour, as lossy formats keep it. */
const near = (actual: [number, number, number], expected: [number, number, number]) =>
  actual.every((value, i) => Math.abs(value - (expected[i] ?? 0)) < 60);

/**
 * The ImageProcessor contract: what every processor (jimp, sharp) must do with real images.
 * `create` gives a fresh processor; the suite closes it.
 */
export function imageProcessorContract(name: string, create: () => ImageProcessor): void {
  describe(`ImageProcessor contract: ${name}`, () => {
    const processor = create();
    afterAll(() => processor.close());

    it.each([
      ["png", "png"], ["png", "jpeg"], ["png", "gif"], ["jpeg", "png"], ["jpeg", "jpeg"], ["gif", "gif"], ["gif", "jpeg"],
    ] as const)("resizes a %s to %s, decoded at the planned size", async (from, to) => {
      const source = await bandedImage(60, 30, from);
      const bytes = await processor.transform(source, { keep: false, width: 30, height: 15 }, to);
      expect(readImageHeader(bytes)).toEqual({ format: to, width: 30, height: 15 });
    });

    it("converts without resizing when the plan keeps the size", async () => {
      const bytes = await processor.transform(await bandedImage(60, 30, "png"), { keep: true }, "gif");
      expect(readImageHeader(bytes)).toEqual({ format: "gif", width: 60, height: 30 });
    });

    it("stretches to exact dimensions", async () => {
      const bytes = await processor.transform(await bandedImage(60, 30, "png"), { keep: false, width: 10, height: 40 }, "png");
      expect(readImageHeader(bytes)).toEqual({ format: "png", width: 10, height: 40 });
    });

    it("crops the planned region after resizing: the centre band of a three-band image", async () => {
      const source = await bandedImage(90, 30, "png");
      const bytes = await processor.transform(source, { keep: false, width: 90, height: 30, crop: { left: 35, top: 5, width: 20, height: 20 } }, "png");
      expect(readImageHeader(bytes)).toEqual({ format: "png", width: 20, height: 20 });
      expect(near(await pixel(bytes, 0, 0), [0, 255, 0])).toBe(true);
      expect(near(await pixel(bytes, 19, 19), [0, 255, 0])).toBe(true);
    });

    it("keeps the left band on the left after a resize", async () => {
      const bytes = await processor.transform(await bandedImage(90, 30, "png"), { keep: false, width: 45, height: 15 }, "png");
      expect(near(await pixel(bytes, 2, 7), [255, 0, 0])).toBe(true);
      expect(near(await pixel(bytes, 42, 7), [0, 0, 255])).toBe(true);
    });

    it("rejects bytes that have an image header but no decodable body", async () => {
      const source = await bandedImage(60, 30, "png");
      const broken = source.slice(0, 40);
      await expect(processor.transform(broken, { keep: false, width: 30, height: 15 }, "png")).rejects.toThrow();
      const garbage = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      await expect(processor.transform(garbage, { keep: false, width: 30, height: 15 }, "png")).rejects.toThrow();
    });

    it("runs concurrent transforms, each with its own answer", async () => {
      const source = await bandedImage(60, 30, "png");
      const widths = [10, 20, 30, 40, 50, 12, 22, 32];
      const answers = await Promise.all(widths.map((w) => processor.transform(source, { keep: false, width: w, height: 10 }, "png")));
      expect(answers.map((bytes) => readImageHeader(bytes)?.width)).toEqual(widths);
    });

    it("leaves the source bytes usable", async () => {
      const source = await bandedImage(60, 30, "png");
      const copy = source.slice();
      await processor.transform(source, { keep: false, width: 30, height: 15 }, "jpeg");
      expect(source).toEqual(copy);
    });
  });
}
