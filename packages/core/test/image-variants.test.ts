import { describe, expect, it } from "vitest";
import {
  contentDisposition, createImageVariants, mimeByContent, readImageHeader, sniffImageFormat, wantsInline,
  type ImageFormat, type ImageProcessor, type ResizePlan,
} from "./internals.ts";
import { createMemoryImageStore, imageStoreContract } from "../src/testing/index.ts";

/** A PNG header (signature and IHDR) of a given size: enough for everything that reads headers. */
function pngHeader(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(bytes.buffer).setUint32(16, width);
  new DataView(bytes.buffer).setUint32(20, height);
  return bytes;
}

const gifHeader = (width: number, height: number) => new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, width & 255, width >> 8, height & 255, height >> 8, 0, 0, 0]);
const jpegHeader = (width: number, height: number) => new Uint8Array([
  0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, // APP0 of length 4
  0xff, 0xc4, 0, 2, // DHT, no frame
  0xff, 0xc2, 0, 11, 8, height >> 8, height & 255, width >> 8, width & 255, 3, 0, 0, 0,
]);

/** A processor that "renders" a PNG header of the planned size, counting its calls and answering slowly. */
function fakeProcessor(): ImageProcessor & { calls: number } {
  return {
    name: "fake",
    calls: 0,
    async transform(source: Uint8Array, plan: ResizePlan, _format: ImageFormat) {
      this.calls++;
      await new Promise((done) => setTimeout(done, 20));
      const header = readImageHeader(source);
      if (!header) throw new Error("undecodable");
      const out = plan.keep ? header : plan.crop ?? plan;
      return pngHeader(out.width, out.height);
    },
    async close() {},
  };
}

imageStoreContract("memory", async (assets) => createMemoryImageStore(assets));

describe("image headers and sniffing", () => {
  it("reads PNG, GIF and JPEG sizes without decoding, the JPEG frame after other segments", () => {
    expect(readImageHeader(pngHeader(640, 480))).toEqual({ format: "png", width: 640, height: 480 });
    expect(readImageHeader(gifHeader(300, 2))).toEqual({ format: "gif", width: 300, height: 2 });
    expect(readImageHeader(jpegHeader(2000, 1500))).toEqual({ format: "jpeg", width: 2000, height: 1500 });
  });

  it("refuses what is no image, or an image of no size", () => {
    expect(readImageHeader(new TextEncoder().encode("<svg></svg>"))).toBeUndefined();
    expect(readImageHeader(pngHeader(0, 10))).toBeUndefined();
    expect(readImageHeader(pngHeader(10, 10).slice(0, 20))).toBeUndefined();
    expect(readImageHeader(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 1]))).toBeUndefined();
    expect(sniffImageFormat(new Uint8Array([0x42, 0x4d, 0, 0]))).toBeUndefined();
  });

  it("records an upload's MIME type from its content", () => {
    expect(mimeByContent(gifHeader(1, 1), "text/plain")).toBe("image/gif");
    expect(mimeByContent(new TextEncoder().encode("<html>"), "image/png")).toBe("application/octet-stream");
    expect(mimeByContent(new TextEncoder().encode("%PDF"), "application/pdf")).toBe("application/pdf");
  });
});

describe("Content-Disposition", () => {
  it.each([["true", true], ["YES", true], ["1", true], ["", false], ["0", false], ["no", false], [undefined, false]] as const)(
    "inline=%j gives inline %s", (value, inline) => expect(wantsInline(value)).toBe(inline));

  it("gives an ASCII fallback without quotes or separators and the exact UTF-8 name", () => {
    expect(contentDisposition(false, 'été "x";\\a.png')).toBe(`attachment; filename="a.png"; filename*=UTF-8''a.png`);
    expect(contentDisposition(true, 'été "1".png')).toBe(`inline; filename="ete _1_.png"; filename*=UTF-8''%C3%A9t%C3%A9%20%221%22.png`);
    expect(contentDisposition(true, "\u0000\r\n")).toBe(`inline; filename="image"; filename*=UTF-8''image`);
  });
});

describe("image variants", () => {
  const source = { bytes: pngHeader(400, 300), hash: "ab".repeat(32), name: "a.png" };

  it("computes a variant asked 50 times at once once, then serves it from the store", async () => {
    const processor = fakeProcessor();
    const store = createMemoryImageStore();
    const variants = createImageVariants({ store, processor });
    const answers = await Promise.all(Array.from({ length: 50 }, () => variants.variant(source, "100x100c", "png")));
    expect(processor.calls).toBe(1);
    expect(new Set(answers.map((a) => a.key))).toEqual(new Set([`${"ab".repeat(16)}-133x100c16_0_100x100-png`]));
    expect(readImageHeader(answers[0]?.bytes ?? new Uint8Array())).toEqual({ format: "png", width: 100, height: 100 });
    await createImageVariants({ store, processor }).variant(source, "100x100c", "png");
    expect(processor.calls).toBe(1);
  });

  it("answers the original bytes when nothing is to change, without the processor", async () => {
    const processor = fakeProcessor();
    const variants = createImageVariants({ store: createMemoryImageStore(), processor });
    const answer = await variants.variant(source, "5000");
    expect(answer.bytes).toBe(source.bytes);
    expect(processor.calls).toBe(0);
  });

  it("refuses oversize sources before the processor sees them, and a processor failure as CRUD0602", async () => {
    const processor = fakeProcessor();
    const variants = createImageVariants({ store: createMemoryImageStore(), processor, limits: { maxPixels: 100_000, maxInputBytes: 20 } });
    await expect(variants.variant(source, "10")).rejects.toMatchObject({ code: "IMAGE0001" });
    const small = { ...source, bytes: pngHeader(100, 100) };
    await expect(variants.variant(small, "10")).rejects.toMatchObject({ code: "IMAGE0001" });
    const lenient = createImageVariants({ store: createMemoryImageStore(), processor: { ...fakeProcessor(), transform: async () => { throw new Error("boom"); } } });
    await expect(lenient.variant(source, "10")).rejects.toMatchObject({ code: "CRUD0602", status: 400 });
    expect(() => lenient.original({ ...source, bytes: new Uint8Array([1, 2, 3]) })).toThrow(expect.objectContaining({ code: "CRUD0601" }));
  });
});
