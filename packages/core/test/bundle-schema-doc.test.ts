import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BUNDLE_SCHEMA_FILE, bundleJsonSchemaText } from "../scripts/write-bundle-schema.ts";

describe("docs/bundle.schema.json", () => {
  it("is what BundleSchema generates (run `pnpm --filter @lineage/core schema` after changing the schema)", () => {
    expect(readFileSync(BUNDLE_SCHEMA_FILE, "utf8")).toBe(bundleJsonSchemaText());
  });

  it("documents the fields of the bundle", () => {
    const schema = JSON.parse(bundleJsonSchemaText());
    expect(Object.keys(schema.properties)).toEqual([
      "$schema", "accounts", "enumerates", "profiles", "fieldAccesses", "lifecycles", "structures", "elements", "searchDomains", "dashboards",
    ]);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.$defs.Field.properties.visibility.description).toMatch(/I invisible/);
    expect(schema.$defs.Element.required).toEqual(["structure"]);
  });
});
