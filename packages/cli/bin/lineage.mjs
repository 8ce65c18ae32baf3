#!/usr/bin/env node
// The command runs the package's built JavaScript (dist/). Inside the workspace, with the export
// condition "@lineage/source" (`node --conditions=@lineage/source`, as the tests run it), the
// package resolves to its TypeScript sources instead, and tsx (a workspace development
// dependency, never needed by an installed package) is loaded to run them.
const entry = import.meta.resolve("@lineage/cli");
if (entry.endsWith(".ts")) {
  const { register } = await import("tsx/esm/api");
  register();
}
let main;
try {
  ({ main } = await import(entry));
} catch (error) {
  // Only a checkout that was never built lacks dist/: say how to build it rather than where Node looked.
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || !String(error.message).includes(entry.replace("file://", ""))) throw error;
  console.error("lineage: @lineage/cli is not built: run `pnpm build` at the repository's root");
  process.exit(1);
}
process.exitCode = await main(process.argv.slice(2));
