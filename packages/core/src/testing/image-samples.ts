import type { ImageFormat } from "../images/image-format.ts";

/*
 * Real images for the ImageProcessor contract, made without an image library (the core has none):
 * PNG written and read here (deflate through the web platform's CompressionStream and
 * DecompressionStream), and a JPEG and a GIF made once by another encoder (jimp), kept as bytes.
 */

/** Three vertical bands, red, green and blue, of 60x30, as jimp wrote them (JPEG quality 90). */
const BANDED_60x30_JPEG =
  "/9j/4AAQSkZJRgABAQAAAQABAAD/2wCEAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMUFRUVDA8XGBYUGBIUFRQB" +
  "AwQEBQQFCQUFCRQNCw0UFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFP/AABEIAB4APAMBEQACEQEDEQH/xAGiAAAB" +
  "BQEBAQEBAQAAAAAAAAAAAQIDBAUGBwgJCgsQAAIBAwMCBAMFBQQEAAABfQECAwAEEQUSITFBBhNRYQcicRQygZGhCCNCscEVUtHwJDNicoIJChYXGBkaJSYn" +
  "KCkqNDU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6g4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV" +
  "1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5+gEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoLEQACAQIEBAMEBwUEBAABAncAAQIDEQQFITEGEkFRB2FxEyIy" +
  "gQgUQpGhscEJIzNS8BVictEKFiQ04SXxFxgZGiYnKCkqNTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqCg4SFhoeIiYqSk5SVlpeYmZqi" +
  "o6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2dri4+Tl5ufo6ery8/T19vf4+fr/2gAMAwEAAhEDEQA/APnSvww/1TCgD2P9nn/mP/8Abv8A+1K+" +
  "J4l/5c/9vfof5j/TU/5p7/ua/wDdc9jr4g/zHCgD8vK/6Mz+5QoAKAPfa/w5P9iwoA9j/Z5/5j//AG7/APtSvieJf+XP/b36H+Y/01P+ae/7mv8A3XPY6+IP" +
  "8xwoA/Lyv+jM/uUKACgD32v8OT/YsKAPY/2ef+Y//wBu/wD7Ur4niX/lz/29+h/mP9NT/mnv+5r/AN1z2OviD/McKAPy8r/ozP7lCgAoA99r/Dk/2LCgD2P9" +
  "nn/mP/8Abv8A+1K+J4l/5c/9vfof5j/TU/5p7/ua/wDdc9jr4g/zHCgD8vK/6Mz+5QoAKAP/2Q==";

/** The same bands as a GIF. */
const BANDED_60x30_GIF =
  "R0lGODlhPAAeAIEAAAAA/wD/AP8AAAAAACH/C05FVFNDQVBFMi4wAwEAAAAh+QQICAAAACwAAAAAPAAeAAACeZSPmcHt/4CctFaFMdzbep+FB0c23zmJYlmi" +
  "qBqypHvCmczRn63hkA7iLXwR4EWIIBaNKeRIaWI2nQJoVAqgGqwMrERb5XqzWm5gDDajy2Jvuo19W9dUtZs9v9fhUjmU7mQXh/enF8jH5KcEiCTYR7ho2Iho" +
  "pEg0VgAAOw==";

/** An [r, g, b] colour. */
export type Rgb = [number, number, number];

/**
 * A real image of `width`x`height` in `format`: three vertical bands, red, green and blue, so a
 * test can tell which part of it a crop kept. PNG at any size; JPEG and GIF at 60x30 only.
 */
export async function bandedImage(width: number, height: number, format: ImageFormat): Promise<Uint8Array> {
  if (format === "png") return encodePng(width, height, bandedPixels(width, height));
  if (width !== 60 || height !== 30) throw new Error(`no banded ${format} sample of ${width}x${height} (60x30 only)`);
  return base64Bytes(format === "jpeg" ? BANDED_60x30_JPEG : BANDED_60x30_GIF);
}

/** The [r, g, b] of a pixel of a PNG (8 bits a sample, not interlaced: what the processors write). */
export async function pixel(png: Uint8Array, x: number, y: number): Promise<Rgb> {
  const image = await decodePng(png);
  if (x < 0 || y < 0 || x >= image.width || y >= image.height) throw new Error(`no pixel ${x},${y} in a ${image.width}x${image.height} image`);
  return image.rgb(x, y);
}

/** RGBA rows of the three bands. */
function bandedPixels(width: number, height: number): Uint8Array {
  const rgba = new Uint8Array(width * height * 4);
  const third = Math.floor(width / 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const band = x < third ? 0 : x < width - third ? 1 : 2;
      rgba.set([band === 0 ? 255 : 0, band === 1 ? 255 : 0, band === 2 ? 255 : 0, 255], (y * width + x) * 4);
    }
  }
  return rgba;
}

/** A PNG of 8-bit RGBA pixels (colour type 6), every row unfiltered. */
export async function encodePng(width: number, height: number, rgba: Uint8Array): Promise<Uint8Array> {
  const raw = new Uint8Array(height * (1 + width * 4));
  for (let y = 0; y < height; y++) raw.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * (1 + width * 4) + 1);
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 6, 0, 0, 0], 8);
  return concat([PNG_SIGNATURE, chunk("IHDR", header), chunk("IDAT", await deflate(raw, "compress")), chunk("IEND", new Uint8Array(0))]);
}

interface DecodedPng {
  readonly width: number;
  readonly height: number;
  rgb(x: number, y: number): Rgb;
}

/** Reads a PNG of 8 bits a sample (grey, RGB, palette, grey and alpha, RGBA), not interlaced. */
async function decodePng(bytes: Uint8Array): Promise<DecodedPng> {
  if (bytes.length < 8 || PNG_SIGNATURE.some((byte, i) => bytes[i] !== byte)) throw new Error("not a PNG");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let width = 0, height = 0, depth = 0, colour = 0, interlace = 0;
  let palette: Uint8Array = new Uint8Array(0);
  const data: Uint8Array[] = [];
  for (let at = 8; at + 8 <= bytes.length;) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      [depth = 0, colour = 0, , , interlace = 0] = body.subarray(8, 13);
    } else if (type === "PLTE") palette = body;
    else if (type === "IDAT") data.push(body);
    else if (type === "IEND") break;
    at += 12 + length;
  }
  const channels = ({ 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 } as Record<number, number>)[colour];
  if (depth !== 8 || interlace !== 0 || channels === undefined) throw new Error(`unsupported PNG: depth ${depth}, colour type ${colour}, interlace ${interlace}`);
  const raw = await deflate(concat(data), "decompress");
  const stride = width * channels;
  const pixels = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? (pixels[y * stride + i - channels] ?? 0) : 0;
      const up = y > 0 ? (pixels[(y - 1) * stride + i] ?? 0) : 0;
      const corner = y > 0 && i >= channels ? (pixels[(y - 1) * stride + i - channels] ?? 0) : 0;
      const predicted = filter === 0 ? 0 : filter === 1 ? left : filter === 2 ? up : filter === 3 ? (left + up) >> 1 : paeth(left, up, corner);
      pixels[y * stride + i] = ((row[i] ?? 0) + predicted) & 0xff;
    }
  }
  return {
    width, height,
    rgb(x, y) {
      const at = y * stride + x * channels;
      const sample = (i: number) => pixels[at + i] ?? 0;
      if (colour === 3) return [palette[sample(0) * 3] ?? 0, palette[sample(0) * 3 + 1] ?? 0, palette[sample(0) * 3 + 2] ?? 0];
      if (colour === 0 || colour === 4) return [sample(0), sample(0), sample(0)];
      return [sample(0), sample(1), sample(2)];
    },
  };
}

function paeth(left: number, up: number, corner: number): number {
  const estimate = left + up - corner;
  const [toLeft, toUp, toCorner] = [Math.abs(estimate - left), Math.abs(estimate - up), Math.abs(estimate - corner)];
  return toLeft <= toUp && toLeft <= toCorner ? left : toUp <= toCorner ? up : corner;
}

const PNG_SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG chunk: length, type, data, CRC of type and data. */
function chunk(type: string, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + body.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, body.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(body, 8);
  view.setUint32(8 + body.length, crc32(out.subarray(4, 8 + body.length)));
  return out;
}

let crcTable: Uint32Array | undefined;
function crc32(bytes: Uint8Array): number {
  crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (crcTable[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** zlib's deflate format, through the web platform's compression streams. */
async function deflate(bytes: Uint8Array, direction: "compress" | "decompress"): Promise<Uint8Array> {
  const stream = direction === "compress" ? new CompressionStream("deflate") : new DecompressionStream("deflate");
  const writer = stream.writable.getWriter();
  const written = writer.write(bytes).then(() => writer.close());
  const reader = stream.readable.getReader();
  const chunks: Uint8Array[] = [];
  for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value as Uint8Array);
  await written;
  return concat(chunks);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function base64Bytes(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}
