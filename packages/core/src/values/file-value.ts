/** A file or image value is stored as `mime|vaultId|name`, as the original platform does. */
export interface FileValue {
  readonly mime: string;
  readonly vaultId: number;
  readonly name: string;
}

/** Parses a stored file value, or undefined when it is not one. */
export function parseFileValue(value: string): FileValue | undefined {
  const match = /^([^|]*)\|(\d+)\|(.*)$/s.exec(value);
  if (!match) return undefined;
  return { mime: match[1] ?? "", vaultId: Number(match[2]), name: match[3] ?? "" };
}

/** The stored text of a file value. */
export function formatFileValue(file: FileValue): string {
  return `${file.mime}|${file.vaultId}|${file.name}`;
}
