import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main, type Io } from "../src/index.ts";
import { openLineage } from "../src/start-lineage.ts";
import { DEMO, basic, spawnServe, type ServeProcess } from "./serve-process.ts";

const data = mkdtempSync(join(tmpdir(), "lineage-start-"));
const running: ServeProcess[] = [];
afterAll(() => {
  for (const serve of running) serve.child.kill("SIGKILL");
  rmSync(data, { recursive: true, force: true });
});

async function start(args: string[]): Promise<ServeProcess> {
  const serve = await spawnServe(args);
  running.push(serve);
  return serve;
}

async function stop(serve: ServeProcess): Promise<void> {
  serve.child.kill("SIGTERM");
  expect((await serve.exited).code).toBe(0);
}

const titleOf = async (serve: ServeProcess) => {
  const response = await fetch(`${serve.url}/api/v2/smart-elements/ART_HELLO.json?fields=document.attributes.ar_title`, { headers: { authorization: basic("alice", "alice") } });
  const body = (await response.json()) as { data: { document: { attributes: { ar_title: { value: string } } } } };
  return body.data.document.attributes.ar_title.value;
};

async function retitle(serve: ServeProcess, title: string): Promise<void> {
  const response = await fetch(`${serve.url}/api/v2/smart-elements/ART_HELLO`, {
    method: "PUT",
    headers: { authorization: basic("alice", "alice"), "content-type": "application/json" },
    body: JSON.stringify({ document: { attributes: { ar_title: { value: title } } } }),
  });
  expect(response.status).toBe(200);
}

function capture(): Io & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (line) => lines.push(...line.split("\n")), err: (line) => errors.push(...line.split("\n")) };
}

describe("pnpm start: serve --seed imports the demo into a new data directory only", () => {
  it("keeps an edit made through the API across a real restart; an import that overwrites it says so", async () => {
    const first = await start(["--data", data, "--seed", DEMO]);
    expect(first.stdout.join("\n")).toMatch(/elements: 16 created/);
    const original = await titleOf(first);
    await retitle(first, "Edited by a user");
    await stop(first);

    const second = await start(["--data", data, "--seed", DEMO]);
    expect(second.stdout).toContain(`${DEMO}: not imported, the store already holds data (lineage import ${DEMO} imports it anyway)`);
    expect(await titleOf(second)).toBe("Edited by a user");
    await stop(second);

    // --bundle imports at every start: the edit is overwritten, and the serve command and its log say so.
    const third = await start(["--data", data, "--bundle", DEMO]);
    expect(await titleOf(third)).toBe(original);
    const warning = `${DEMO}: 1 element changed since the last import was overwritten with the bundle's values`;
    expect(third.stderr).toContain(`lineage serve: ${warning}`);
    expect(third.stdout.join("\n")).toMatch(/elements: 0 created, 1 updated, 15 unchanged \(1 of them changed since the last import: those changes are overwritten\)/);
    const logged = third.stdout.flatMap((line) => (line.startsWith("{") ? [JSON.parse(line) as { level: number; msg: string; overwritten?: number }] : []));
    expect(logged).toContainEqual(expect.objectContaining({ level: 40, msg: warning, overwritten: 1 }));
    await retitle(third, "Edited again");
    await stop(third);

    // Besides the import's progress, a line per tenth of each phase on stderr without a terminal.
    const warnings = (errors: string[]) => errors.filter((line) => !/: (reading|checking|writing) \d+% /.test(line));
    const wouldOverwrite = (title: string) => [`lineage import: ${DEMO} would overwrite the changes made since the last import to 1 element:`, `  ART_HELLO (${title})`];

    // `lineage import` over the edit: without a terminal, refused unless --force, and nothing written.
    const refused = capture();
    expect(await main(["import", "--data", data, DEMO], refused)).toBe(1);
    expect(warnings(refused.errors)).toEqual([
      ...wouldOverwrite("Edited again"),
      "lineage import: nothing imported from this file; run it again with --force to overwrite them (--dry-run lists what it would do)",
    ]);
    // --dry-run says what the import would do and overwrite, and writes nothing.
    const dry = capture();
    expect(await main(["import", "--dry-run", "--data", data, DEMO], dry)).toBe(0);
    expect(dry.lines).toEqual(expect.arrayContaining([
      `${DEMO} (dry run, nothing written)`,
      "  elements: 0 created, 1 updated, 15 unchanged (1 of them changed since the last import: those changes are overwritten)",
      "  would overwrite the changes made since the last import to 1 element:",
      "    ART_HELLO (Edited again)",
    ]));
    // On a terminal it asks: no leaves the edit, yes overwrites it.
    const declined = { ...capture(), confirm: () => Promise.resolve(false) };
    expect(await main(["import", "--data", data, DEMO], declined)).toBe(1);
    expect(warnings(declined.errors)).toEqual([...wouldOverwrite("Edited again"), `lineage import: ${DEMO} not imported`]);
    const questions: string[] = [];
    const io = { ...capture(), confirm: (question: string) => Promise.resolve(questions.push(question) > 0) };
    expect(await main(["import", "--data", data, DEMO], io)).toBe(0);
    expect(questions).toEqual(["Overwrite them with the bundle's values? [y/N] "]);
    expect(warnings(io.errors)).toEqual([...wouldOverwrite("Edited again"), `lineage import: ${warning}`]);
    const quiet = capture();
    expect(await main(["import", "--data", data, DEMO], quiet)).toBe(0);
    expect(warnings(quiet.errors)).toEqual([]);
    expect(quiet.lines).toContain("  elements: 0 created, 0 updated, 16 unchanged");

    // --force overwrites without asking, and says what it overwrote.
    const { platform, store } = await openLineage({ dataDir: data }, []);
    const alice = await platform.accounts.principalOf((await platform.accounts.find("alice"))!);
    await platform.elements.update(alice, "ART_HELLO", { values: { ar_title: "Edited in the app" } });
    await store.close();
    const forced = capture();
    expect(await main(["import", "--force", "--data", data, DEMO], forced)).toBe(0);
    expect(warnings(forced.errors)).toEqual([`lineage import: ${warning}`]);
  }, 180_000);
});
