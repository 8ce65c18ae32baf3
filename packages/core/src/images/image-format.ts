/** The formats the Images routes read and write (api-v2.md, Limits: png, jpg, jpeg, gif). */
export type ImageFormat = "png" | "jpeg" | "gif";

const BY_EXTENSION: Readonly<Record<string, ImageFormat>> = { png: "png", jpg: "jpeg", jpeg: "jpeg", gif: "gif" };

/** The format an extension names (case-insensitive), or undefined when it is not an image extension. */
export function formatOfExtension(extension: string): ImageFormat | undefined {
  return Object.hasOwn(BY_EXTENSION, extension.toLowerCase()) ? BY_EXTENSION[extension.toLowerCase()] : undefined;
}

/** The MIME type of a format. */
export function mimeOfFormat(format: ImageFormat): string {
  return `image/${format}`;
}

/** The lower-case extension of a file name (`photo.JPG` gives `jpg`), or "" when it has none. */
export function extensionOf(name: string): string {
  const match = /\.([A-Za-z0-9]+)$/.exec(name);
  return match ? (match[1] ?? "").toLowerCase() : "";
}

/** The format of image bytes from their signature (magic bytes), or undefined when they are no image we serve. */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | undefined {
  if (bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47
    && bytes[4] === 0x0d && bytes[5] === 0x0a && bytes[6] === 0x1a && bytes[7] === 0x0a) return "png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (bytes.length >= 6 && bytes[0] === 0x47 && bytes[1] === 0x49 && bytes[2] === 0x46 && bytes[3] === 0x38
    && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return "gif";
  return undefined;
}

/**
 * The MIME type to record for uploaded bytes: the image type their content proves, whatever the
 * client claimed; a claimed image type the content does not bear out becomes application/octet-stream.
 */
export function mimeByContent(content: Uint8Array, claimed: string): string {
  const format = sniffImageFormat(content);
  if (format) return mimeOfFormat(format);
  return claimed.trim().toLowerCase().startsWith("image/") || !claimed.trim() ? "application/octet-stream" : claimed;
}
