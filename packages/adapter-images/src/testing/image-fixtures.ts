import { Jimp } from "jimp";
import type { ImageFormat } from "@lineage/core";

/**
 * A real image of `width`x`height` in `format`, made by jimp: three vertical bands, red, green and blue,
 * so a test can tell which part of it a crop kept.
 */
export async function bandedImage(width: number, height: number, format: ImageFormat): Promise<Uint8Array> {
  const image = new Jimp({ width, height, color: 0xff0000ff });
  const third = Math.floor(width / 3);
  image.scan(0, 0, width, height, (x, _y, at) => {
    const band = x < third ? 0 : x < width - third ? 1 : 2;
    image.bitmap.data[at] = band === 0 ? 255 : 0;
    image.bitmap.data[at + 1] = band === 1 ? 255 : 0;
    image.bitmap.data[at + 2] = band === 2 ? 255 : 0;
    image.bitmap.data[at + 3] = 255;
  });
  const buffer = format === "jpeg" ? await image.getBuffer("image/jpeg", { quality: 90 }) : await image.getBuffer(`image/${format}`);
  return new Uint8Array(buffer);
}

/** Decodes image bytes (whatever the format) to read pixels (not exported: jimp's type cannot be named in declarations). */
async function decode(bytes: Uint8Array) {
  return Jimp.fromBuffer(Buffer.from(bytes));
}

/** The [r, g, b] of a pixel of decoded image bytes. */
export async function pixel(bytes: Uint8Array, x: number, y: number): Promise<[number, number, number]> {
  const image = await decode(bytes);
  const at = (y * image.bitmap.width + x) * 4;
  const d = image.bitmap.data;
  return [d[at] ?? 0, d[at + 1] ?? 0, d[at + 2] ?? 0];
}

/** Random pixels: a PNG that compresses badly (about 4 bytes a pixel), for input size caps. */
export async function noisyPng(width: number, height: number): Promise<Uint8Array> {
  const image = new Jimp({ width, height });
  for (let i = 0; i < image.bitmap.data.length; i++) image.bitmap.data[i] = (Math.random() * 256) | 0;
  return new Uint8Array(await image.getBuffer("image/png"));
}
