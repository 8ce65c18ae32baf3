import { sniffImageFormat, type ImageFormat } from "./image-format.ts";

/** What an image's header says, read without decoding its pixels. */
export interface ImageHeader {
  readonly format: ImageFormat;
  readonly width: number;
  readonly height: number;
}

const u16be = (b: Uint8Array, at: number) => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
const u16le = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const u32be = (b: Uint8Array, at: number) => (u16be(b, at) * 0x10000) + u16be(b, at + 2);

/** JPEG start-of-frame markers (baseline, progressive, lossless...); C4, C8 and CC are not frames. */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpegSize(b: Uint8Array): { width: number; height: number } | undefined {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1] ?? 0;
    // Fill bytes and markers without a length (RSTn, TEM) carry no segment.
    if (marker === 0xff) { at++; continue; }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) { at += 2; continue; }
    if (isStartOfFrame(marker)) return { height: u16be(b, at + 5), width: u16be(b, at + 7) };
    const length = u16be(b, at + 2);
    if (length < 2) return undefined;
    at += 2 + length;
  }
  return undefined;
}

/**
 * The format and dimensions of image bytes from their header alone, or undefined when the
 * bytes are not a PNG, JPEG or GIF with a readable, non-empty size. Lets a server refuse
 * an image too large to decode before any decoder allocates its pixels.
 */
export function readImageHeader(bytes: Uint8Array): ImageHeader | undefined {
  const format = sniffImageFormat(bytes);
  let size: { width: number; height: number } | undefined;
  if (format === "png") {
    // The first chunk must be IHDR: width and height are its first two fields.
    const isIhdr = bytes.length >= 24 && bytes[12] === 0x49 && bytes[13] === 0x48 && bytes[14] === 0x44 && bytes[15] === 0x52;
    size = isIhdr ? { width: u32be(bytes, 16), height: u32be(bytes, 20) } : undefined;
  } else if (format === "gif") {
    size = bytes.length >= 10 ? { width: u16le(bytes, 6), height: u16le(bytes, 8) } : undefined;
  } else if (format === "jpeg") {
    size = jpegSize(bytes);
  }
  if (!format || !size || size.width < 1 || size.height < 1) return undefined;
  return { format, ...size };
}
