/** A size as Postgres' pg_size_pretty writes it: bytes below 10 kB, then kB, MB, GB, TB rounded half up. */
export function prettySize(bytes: number): string {
  const units = ["bytes", "kB", "MB", "GB", "TB"];
  let size = bytes;
  let unit = 0;
  while (unit < units.length - 1 && Math.abs(size) >= 10 * 1024 - 0.5) {
    size /= 1024;
    unit++;
  }
  return `${Math.round(size)} ${units[unit]}`;
}

/** The {size, prettySize} pair of the administration answers. */
export function sizeEntry(bytes: number): { size: string; prettySize: string } {
  return { size: String(bytes), prettySize: prettySize(bytes) };
}
