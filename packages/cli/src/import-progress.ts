import type { ImportProgress } from "@lineage/core";
import type { Io } from "./io.ts";
import { progressBar } from "./progress-bar.ts";

/** What an import of one file tells as it goes: the bytes of its first read, then the elements checked and written. */
export interface ImportProgressView {
  onBytes(read: number, total: number): void;
  onProgress(progress: ImportProgress): void;
}

const megabytes = (bytes: number) => (bytes / 1e6).toFixed(1);

/**
 * The progress of importing `file`, on stderr: a bar per phase (reading the file, checking the
 * elements, writing them) on a terminal, else a line per tenth of each phase.
 * @example
 * const view = importProgress(io, "bundle.json"); // "bundle.json: writing 40% 400000/1000000 elements"
 */
export function importProgress(io: Io, file: string, terminal?: boolean): ImportProgressView {
  const line = (text: string) => io.err(text);
  const reading = progressBar(`${file}: reading`, { line, terminal, amount: (done, total) => `${megabytes(done)}/${megabytes(total)} MB` });
  const elements = (phase: string) => progressBar(`${file}: ${phase}`, { line, terminal, amount: (done, total) => `${done}/${total} elements` });
  const checking = elements("checking");
  const writing = elements("writing");
  return {
    onBytes: reading,
    onProgress({ phase, done, total }) {
      if (total === undefined || total === 0) return;
      if (phase === "checking") checking(done, total);
      else if (phase === "writing") writing(done, total);
    },
  };
}
