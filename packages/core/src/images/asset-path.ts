import { LineageError } from "../errors/lineage-error.ts";

/** Refuses a path with a parent segment or a NUL, as every ImageStore must (ROUTES0115); returns it without leading slashes. */
export function relativeAssetPath(path: string): string {
  if (path.split(/[\\/]/).includes("..") || path.includes("\0")) throw new LineageError("ROUTES0115", [path]);
  return path.replace(/^[\\/]+/, "");
}
