/*
 * Configuration modules and custom classes may be TypeScript (`lineage.config.ts`). Node 20 cannot
 * load .ts files and the built command runs without tsx: tsx's loader is registered only when
 * such a module is met, and only if the app has installed tsx (an optional peer dependency).
 */

const TYPESCRIPT = /\.[cm]?ts$/i;
let typescriptLoader: Promise<void> | undefined;

/** Registers tsx's loader, once. */
function loadTypescript(url: string): Promise<void> {
  typescriptLoader ??= import("tsx/esm/api").then(
    ({ register }) => void register(),
    () => {
      typescriptLoader = undefined;
      throw new Error(`${url} is TypeScript: install tsx beside @lineage/cli (npm install tsx), or write it in JavaScript`);
    },
  );
  return typescriptLoader;
}

/** `import(url)`, TypeScript modules included. */
export async function importModule(url: string): Promise<unknown> {
  try {
    return await import(url);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ERR_UNKNOWN_FILE_EXTENSION" || !TYPESCRIPT.test(new URL(url, "file:///").pathname)) throw error;
    await loadTypescript(url);
    return import(url);
  }
}
