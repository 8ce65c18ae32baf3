import type { Command } from "commander";
import { formatImportReport, overwriteWarning, type ImportReport, type OverwrittenElement } from "@lineage/core";
import type { Io } from "./io.ts";
import type { Run } from "./command-run.ts";
import { createDocumentTexts } from "@lineage/adapter-search";
import { importProgress } from "./import-progress.ts";
import { indexImported } from "./import-indexes.ts";
import { importBundleFile, openLineage } from "./start-lineage.ts";
import { storeLocationOf, withStoreOptions, type StoreFlags } from "./store-location.ts";

interface ImportFlags extends StoreFlags {
  readonly dryRun?: boolean;
  readonly force?: boolean;
}

/** How many overwritten elements are named one per line before the rest are counted. */
const LISTED = 20;

/** The elements an import overwrites (or would), one per line after `indent`, then how many more. */
function listOf(elements: readonly OverwrittenElement[], indent: string): string {
  const lines = elements.slice(0, LISTED).map((element) => `${indent}${element.name ?? `#${element.initid}`} (${element.title})`);
  if (elements.length > LISTED) lines.push(`${indent}and ${elements.length - LISTED} more`);
  return lines.join("\n");
}

/** Stops an import at its first overwrite, rolling it back: the command then asks, or refuses. */
class OverwriteFound extends Error {
  constructor() {
    super("the import would overwrite changes made since the import before");
  }
}

const plural = (n: number) => `${n} element${n > 1 ? "s" : ""}`;

/**
 * `lineage import FILE...`: imports bundles, streamed, with their progress on stderr, and prints
 * what each did. Elements changed through the API or the console since the import before are not
 * overwritten unawares: an import that comes to one is rolled back, a dry run lists them all, and
 * the command asks on a terminal, and refuses without one, unless `--force`.
 * `--dry-run` only tells, for every file, what the import would do and which changes it would
 * overwrite. Files are imported in turn, each in its own transaction, as before.
 */
export function importCommand(program: Command, io: Io, run: Run): void {
  withStoreOptions(program.command("import").description("import bundles of any size (each checked first, a bad one refused whole), with their progress on stderr, and print what each created or updated; asks before overwriting elements changed since the last import"))
    .argument("<file...>", "bundle files (JSON), or files of elements in the original's XML import format (.xml: what GET <docid>.xml answers)")
    .option("--dry-run", "import and roll back: print what each file would create, update and overwrite, and write nothing", false)
    .option("--force", "overwrite elements changed since the last import without asking (what a script must say: without a terminal, the import is refused otherwise)", false)
    .action((files: string[], flags: ImportFlags) => run(async () => {
      const location = storeLocationOf(flags);
      // Attached PDF, DOCX and ODT files are read for the search indexes, as `serve` reads them.
      const documents = createDocumentTexts();
      const { platform, store } = await openLineage(location, [], { documents }).catch(async (error: unknown) => {
        await documents.close();
        throw error;
      });
      let imported = false;
      try {
        for (const file of files) {
          if (flags.dryRun) {
            const overwritten: OverwrittenElement[] = [];
            const tried = await importBundleFile(platform, file, location.dataDir, {
              progress: importProgress(io, `${file} (dry run)`), dryRun: true, onOverwrite: (element) => overwritten.push(element),
            });
            io.out(`${file} (dry run, nothing written)\n  ${formatImportReport(tried).split("\n").join("\n  ")}`);
            if (overwritten.length > 0) io.out(`  would overwrite the changes made since the last import to ${plural(overwritten.length)}:\n${listOf(overwritten, "    ")}`);
            continue;
          }
          let report: ImportReport | undefined;
          if (!flags.force) {
            // One pass when nothing edited stands in the way: the import stops (rolled back) at the first overwrite.
            try {
              report = await importBundleFile(platform, file, location.dataDir, {
                progress: importProgress(io, file), onOverwrite: () => { throw new OverwriteFound(); },
              });
            } catch (error) {
              if (!(error instanceof OverwriteFound)) throw error;
              const overwritten: OverwrittenElement[] = [];
              await importBundleFile(platform, file, location.dataDir, {
                progress: importProgress(io, `${file} (dry run)`), dryRun: true, onOverwrite: (element) => overwritten.push(element),
              });
              io.err(`lineage import: ${file} would overwrite the changes made since the last import to ${plural(overwritten.length)}:\n${listOf(overwritten, "  ")}`);
              if (!io.confirm) {
                io.err("lineage import: nothing imported from this file; run it again with --force to overwrite them (--dry-run lists what it would do)");
                return 1;
              }
              if (!(await io.confirm("Overwrite them with the bundle's values? [y/N] "))) {
                io.err(`lineage import: ${file} not imported`);
                return 1;
              }
            }
          }
          report ??= await importBundleFile(platform, file, location.dataDir, { progress: importProgress(io, file) });
          imported = true;
          io.out(`${file}\n  ${formatImportReport(report).split("\n").join("\n  ")}`);
          const warning = overwriteWarning(file, report);
          if (warning) io.err(`lineage import: ${warning}`);
        }
        if (imported) await indexImported(platform, io);
      } finally {
        await documents.close();
        await store.close();
      }
      return 0;
    }));
}
