import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Option, type Command } from "commander";
import { openSqliteStore } from "@lineage/adapter-sqlite";
import { createPlatform, createScryptPasswordHasher, type Platform } from "@lineage/core";
import { readBundleFile } from "./bundle-file.ts";
import type { Run } from "./command-run.ts";
import type { Io } from "./io.ts";
import { openStore, storeLocationOf, withStoreOptions, type StoreFlags } from "./store-location.ts";
import { renderStructureTypes } from "./structure-types.ts";
import { UsageError } from "./usage-error.ts";

interface TypesFlags extends StoreFlags {
  readonly out?: string;
}

/** `lineage types [BUNDLE...] [--out FILE]`: TypeScript types of every structure, of bundles or of the store. */
export function typesCommand(program: Command, io: Io, run: Run): void {
  withStoreOptions(program.command("types")
    .description("write TypeScript types of every Smart Structure (values, needed fields, enum keys, states, transitions) for @lineage/client and @lineage/core, from bundles or from the store"))
    .argument("[bundle...]", "bundle files to read the structures from, in order, instead of the store")
    .addOption(new Option("--out <file>", "the file to write").default(undefined, "standard output"))
    .action((bundles: string[], flags: TypesFlags) => run(() => writeTypes(bundles, flags, io)));
}

async function writeTypes(bundles: readonly string[], flags: TypesFlags, io: Io): Promise<number> {
  const text = bundles.length > 0 ? await typesOfBundles(bundles) : await typesOfStore(flags);
  if (flags.out) {
    writeFileSync(flags.out, text);
    io.err(`lineage types: wrote ${flags.out}`);
  } else {
    io.out(text.replace(/\n$/, ""));
  }
  return 0;
}

/** The types of the definitions a platform serves now. */
async function typesOf(platform: Platform): Promise<string> {
  const definitions = await platform.structures.definitions();
  return renderStructureTypes({
    structures: definitions.structures(),
    enumerate: (name) => definitions.enumerate(name),
    lifecycle: (name) => definitions.lifecycle(name),
  });
}

/** The bundles' definitions, imported into a store of their own that is thrown away (their elements left out). */
async function typesOfBundles(paths: readonly string[]): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), "lineage-types-"));
  const store = openSqliteStore({ dataDir });
  try {
    // Accounts are imported as the bundle's profiles may name them; their passwords are hashed cheaply, the store being thrown away.
    const platform = createPlatform({ store, hasher: createScryptPasswordHasher({ N: 1024 }) });
    for (const path of paths) {
      const bundle = readBundleFile(path);
      const definitions = bundle.json && typeof bundle.json === "object" ? { ...bundle.json, elements: [] } : bundle.json;
      await platform.bundles.import(definitions, { readFile: bundle.readFile });
    }
    return await typesOf(platform);
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The definitions of the store at --data or --database. */
async function typesOfStore(flags: StoreFlags): Promise<string> {
  const location = storeLocationOf(flags);
  if (!location.databaseUrl && !existsSync(location.dataDir)) {
    throw new UsageError(`--data: no data directory "${location.dataDir}"; name one, a --database, or bundle files`);
  }
  const store = await openStore(location);
  try {
    return await typesOf(createPlatform({ store }));
  } finally {
    await store.close();
  }
}
