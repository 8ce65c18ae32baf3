import type { Command } from "commander";
import { formatImportReport, overwriteWarning } from "@lineage/core";
import type { Io } from "./io.ts";
import type { Run } from "./command-run.ts";
import { importProgress } from "./import-progress.ts";
import { openLineage } from "./start-lineage.ts";
import { storeLocationOf, withStoreOptions, type StoreFlags } from "./store-location.ts";

/**
 * `lineage import FILE...`: imports bundles, streamed, with their progress on stderr, and prints
 * what each did, warning of changes it overwrote.
 */
export function importCommand(program: Command, io: Io, run: Run): void {
  withStoreOptions(program.command("import").description("import bundles of any size (each checked first, a bad one refused whole), with their progress on stderr, and print what each created or updated"))
    .argument("<file...>", "bundle files (JSON)")
    .action((files: string[], flags: StoreFlags) => run(async () => {
      const { store, imports } = await openLineage(storeLocationOf(flags), files, { importProgress: (file) => importProgress(io, file) });
      await store.close();
      imports.forEach((report, i) => {
        const file = files[i] ?? "";
        io.out(`${file}\n  ${formatImportReport(report).split("\n").join("\n  ")}`);
        const warning = overwriteWarning(file, report);
        if (warning) io.err(`lineage import: ${warning}`);
      });
      return 0;
    }));
}
