import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { runLineage } from "./lineage-command.ts";

// `lineage types`: TypeScript of every structure, from bundles or from a store, compiled by tsc against
// the built declarations of @lineage/client and @lineage/core (as an app that installed them sees them).

const ROOT = resolve(import.meta.dirname, "..", "..", "..");
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
const run = promisify(execFile);
const temp = mkdtempSync(join(tmpdir(), "lineage-types-test-"));
// Inside the workspace, so that @lineage/client and @lineage/core resolve (to their built declarations).
const app = mkdtempSync(join(ROOT, "packages/client/.types-app-"));

afterAll(() => {
  rmSync(temp, { recursive: true, force: true });
  rmSync(app, { recursive: true, force: true });
});

/** Every field type, a column of each kind, visibilities, and a structure that extends another with a lifecycle. */
const EVERY_TYPE = {
  enumerates: { LEVELS: [{ key: "low", label: "Low" }, { key: "high-end", label: "High" }] },
  lifecycles: [{
    name: "WFL_CHILD", firstState: "open",
    states: [{ id: "open" }, { id: "closed" }],
    transitions: [{ id: "close", from: "open", to: "closed" }, { id: "reopen", from: "closed", to: "open" }],
  }],
  structures: [
    {
      name: "BASE_RECORD", titleField: "b_text", fields: [
        { id: "b_text", type: "text", needed: true }, { id: "b_long", type: "longtext" }, { id: "b_html", type: "htmltext" },
        { id: "b_int", type: "int" }, { id: "b_double", type: "double" }, { id: "b_money", type: "money" },
        { id: "b_date", type: "date" }, { id: "b_timestamp", type: "timestamp" }, { id: "b_time", type: "time" },
        { id: "b_enum", type: "enum", enum: "LEVELS", needed: true }, { id: "b_enums", type: "enum", enum: "LEVELS", multiple: true },
        { id: "b_docid", type: "docid", structure: "BASE_RECORD" }, { id: "b_docids", type: "docid", multiple: true },
        { id: "b_account", type: "account" }, { id: "b_color", type: "color" }, { id: "b_password", type: "password" },
        { id: "b_file", type: "file" }, { id: "b_image", type: "image" }, { id: "b_texts", type: "text", multiple: true },
        { id: "b_readonly", type: "text", visibility: "R" }, { id: "b_hidden", type: "int", visibility: "H" }, { id: "b_secret", type: "text", visibility: "I" },
        { id: "b_rows", type: "array", fields: [
          { id: "b_row_text", type: "text" }, { id: "b_row_int", type: "int" }, { id: "b_row_levels", type: "enum", enum: "LEVELS", multiple: true }, { id: "b_row_file", type: "file" },
        ] },
      ],
    },
    { name: "CHILD_RECORD", extends: "BASE_RECORD", lifecycle: "WFL_CHILD", fields: [{ id: "c_note", type: "text", needed: true }] },
  ],
};

/** Uses the generated types as an app would; each @ts-expect-error line must be an error. */
const USAGE = `
import { createLineageClient } from "@lineage/client";
import type { Platform, Principal } from "@lineage/core";
import type { BaseRecord, ChildRecord, LevelsKey } from "./every-type.ts";
import type { Article } from "./demo.ts";

export async function use(platform: Platform, principal: Principal) {
  const client = createLineageClient({ baseUrl: "http://localhost:8080", auth: { type: "token", token: "t" } });
  const child = await client.elements.read<ChildRecord>("CHILD_1");
  const text: string = child.values.b_text;
  const note: string = child.values.c_note;
  const levels: LevelsKey[] = child.values.b_enums;
  const level: LevelsKey = child.values.b_enum;
  const rows: (number | null)[] = child.values.b_row_int;
  const rowLevels: LevelsKey[][] = child.values.b_row_levels;
  const password: null = child.values.b_password;
  const money: number | null = child.values.b_money;
  // @ts-expect-error: an invisible field is not disclosed
  void child.values.b_secret;
  // @ts-expect-error: a misspelt field
  void child.values.b_txet;
  await client.elements.create<ChildRecord>("CHILD_RECORD", { b_text: "x", b_enum: "high-end", c_note: "y", b_docid: "BASE_1", b_password: "secret" });
  // @ts-expect-error: c_note is needed
  await client.elements.create<ChildRecord>("CHILD_RECORD", { b_text: "x", b_enum: "low" });
  // @ts-expect-error: an enum takes its keys only
  await client.elements.update<BaseRecord>("BASE_1", { b_enum: "medium" });
  // @ts-expect-error: a read-only field is not written
  await client.elements.update<BaseRecord>("BASE_1", { b_readonly: "x" });
  await client.elements.update<BaseRecord>("BASE_1", { b_hidden: 3, b_file: new Blob(["x"]), b_row_levels: [["low"], []] });
  await client.lifecycle.run<ChildRecord>("CHILD_1", "close");
  // @ts-expect-error: BASE_RECORD has no lifecycle
  await client.lifecycle.run<BaseRecord>("BASE_1", "close");
  const reading = await platform.elements.read<Article>(principal, "ART_HELLO");
  const title: string | undefined = reading.data.document.attributes?.ar_title?.value;
  // @ts-expect-error: a misspelt field of the embedded API's answer
  void reading.data.document.attributes?.ar_titel;
  return [text, note, levels, level, rows, rowLevels, password, money, title];
}
`;

describe("lineage types", () => {
  it("writes the demo's types as examples/demo/lineage-types.ts holds them", async () => {
    const out = join(temp, "demo.ts");
    const result = await runLineage(["types", "examples/demo/bundle.json", "--out", out]);
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(readFileSync(join(ROOT, "examples/demo/lineage-types.ts"), "utf8"));
  });

  it("writes the same types from a store as from the bundle imported into it", async () => {
    const data = join(temp, "data");
    const imported = await runLineage(["import", "--data", data, "examples/demo/bundle.json"]);
    expect(imported.status, imported.stderr).toBe(0);
    const result = await runLineage(["types", "--data", data]);
    expect(result.status, result.stderr).toBe(0);
    expect(`${result.stdout.replace(/\n$/, "")}\n`).toBe(readFileSync(join(ROOT, "examples/demo/lineage-types.ts"), "utf8"));
  });

  it("refuses a data directory that does not exist, saying what it takes", async () => {
    const result = await runLineage(["types", "--data", join(temp, "nowhere")]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/no data directory/);
  });

  it("writes types of every field type and of inheritance that tsc compiles, and an app's typo is a compile error", async () => {
    const bundle = join(temp, "every-type.json");
    writeFileSync(bundle, JSON.stringify(EVERY_TYPE));
    const generated = await runLineage(["types", bundle, "--out", join(app, "every-type.ts")]);
    expect(generated.status, generated.stderr).toBe(0);
    const text = readFileSync(join(app, "every-type.ts"), "utf8");
    expect(text).toMatch(/export interface ChildRecord \{/);
    expect(text).toMatch(/extends BASE_RECORD/);
    expect(text).toMatch(/export type LevelsKey = "low" \| "high-end";/);
    writeFileSync(join(app, "demo.ts"), readFileSync(join(ROOT, "examples/demo/lineage-types.ts")));
    writeFileSync(join(app, "usage.ts"), USAGE);
    // As an app compiles: strict, NodeNext, the packages' published declarations (no source condition).
    writeFileSync(join(app, "tsconfig.json"), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", lib: ["ES2023", "DOM"], types: [], skipLibCheck: true, allowImportingTsExtensions: true, noUncheckedIndexedAccess: true },
      include: ["*.ts"],
    }));
    await run(process.execPath, [TSC, "-p", app], { cwd: app });
    // The same app with a typo of its own: tsc fails and names it.
    writeFileSync(join(app, "usage.ts"), USAGE.replace("child.values.c_note;", "child.values.c_nte;"));
    const failed = await run(process.execPath, [TSC, "-p", app], { cwd: app }).then(() => "", (error: { stdout?: string }) => error.stdout ?? "failed");
    expect(failed).toMatch(/usage\.ts.*c_nte/);
  }, 240_000);
});
