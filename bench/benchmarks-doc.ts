import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, totalmem } from "node:os";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

/*
 * docs/benchmarks.md: one `## ` section per benchmark script, each refreshed by its own script while the
 * others are kept as they are; and the small formatters the sections share.
 */

export const DOCS = fileURLToPath(new URL("../docs/benchmarks.md", import.meta.url));

/**
 * `current` with `section` in place of the one that starts with the line `heading` (up to the next `## `
 * heading), or with `section` appended after a blank line when there is none; ends with a newline.
 */
export function replaceSection(current: string, heading: string, section: string): string {
  const start = current.indexOf(`${heading}\n`);
  let next: string;
  if (start < 0) {
    next = `${current.trimEnd()}\n\n${section}`;
  } else {
    const after = current.indexOf("\n## ", start + heading.length);
    // A blank line before the next heading, whether or not the section ends with a line break.
    next = `${current.slice(0, start)}${after < 0 ? section : `${section.trimEnd()}\n\n${current.slice(after + 1)}`}`;
  }
  return next.endsWith("\n") ? next : `${next}\n`;
}

/** What docs/benchmarks.md starts with when a benchmark creates it. */
const INTRO = `# Benchmarks

Figures measured on this project's own code, and the targets they are held to.
Each section is written by its own script (\`pnpm bench\`, \`pnpm bench:enumerates\`,
\`pnpm bench:images\`, \`pnpm bench:fulltext\`, \`pnpm bench:soak\`), which leaves
the other sections as they are.
`;

/** Replaces the section in `file` (docs/benchmarks.md) or appends it; a missing file is created with the intro first. */
export function writeSection(heading: string, section: string, file = DOCS): void {
  const current = existsSync(file) ? readFileSync(file, "utf8") : INTRO;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, replaceSection(current, heading, section));
}

/** Prints the section and, unless --no-docs, writes it into docs/benchmarks.md. */
export function publishSection(section: string, docs: { heading: string; write: boolean }): void {
  console.log(`\n${section}`);
  if (docs.write) {
    writeSection(docs.heading, section);
    console.log(`bench: wrote ${DOCS}`);
  }
}

function cpuModel(): string {
  try {
    return /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1]?.trim() ?? "unknown";
  } catch {
    return "unknown";
  }
}

/** `Machine: Node …, N cores (\`nproc\`), CPU …, N GiB RAM.`: what a section was measured on. */
export function machineLine(): string {
  return `Machine: Node ${process.version}, ${availableParallelism()} cores (\`nproc\`), CPU ${cpuModel()}, ` +
    `${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM.`;
}

/** The last note of every section that shows load figures. */
export const LATENCY_NOTE = "- Latency percentiles are exact, from every measured answer; req/s is autocannon's per-second average.";

export const ms = (value: number) => value.toFixed(2);
export const mark = (met: boolean) => (met ? "met" : "**NOT met**");
export const thousands = (value: number) => Math.round(value).toLocaleString("en-US");
