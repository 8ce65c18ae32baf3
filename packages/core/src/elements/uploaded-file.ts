/** A file sent with a request or named by a bundle, before it is stored in the vault. */
export interface UploadedFile {
  readonly kind: "upload";
  readonly name: string;
  readonly mime: string;
  readonly content: Uint8Array;
}

/** True when a raw input value is a file to store. */
export function isUploadedFile(value: unknown): value is UploadedFile {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "upload";
}
