// Writes docs/bundle.schema.json from BundleSchema: `pnpm --filter @lineage/core schema`.
// test/bundle-schema-doc.test.ts fails when the file is out of date.
import { writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { toJsonSchema } from "@valibot/to-json-schema";
import { BUNDLE_SCHEMA_DEFINITIONS, BundleSchema } from "../src/bundle/bundle.schema.ts";

/** Where the JSON Schema of bundles is kept, from the repository root. */
export const BUNDLE_SCHEMA_FILE = fileURLToPath(new URL("../../../docs/bundle.schema.json", import.meta.url));

/** The text of docs/bundle.schema.json. */
export function bundleJsonSchemaText(): string {
  const schema = toJsonSchema(BundleSchema, { definitions: BUNDLE_SCHEMA_DEFINITIONS, errorMode: "throw" });
  const { $schema, ...rest } = schema;
  const document = {
    $schema,
    $comment: "Generated from packages/core/src/bundle/bundle.schema.ts by `pnpm --filter @lineage/core schema`: do not edit. See docs/bundles.md.",
    ...rest,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(BUNDLE_SCHEMA_FILE, bundleJsonSchemaText());
  console.log(`wrote ${BUNDLE_SCHEMA_FILE}`);
}
