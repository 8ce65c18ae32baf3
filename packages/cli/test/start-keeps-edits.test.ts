import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main, type Io } from "../src/index.ts";
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

    const io = capture();
    expect(await main(["import", "--data", data, DEMO], io)).toBe(0);
    // Besides the import's progress, a line per tenth of each phase on stderr without a terminal.
    const warnings = (errors: string[]) => errors.filter((line) => !/: (reading|checking|writing) \d+% /.test(line));
    expect(warnings(io.errors)).toEqual([`lineage import: ${warning}`]);
    const quiet = capture();
    expect(await main(["import", "--data", data, DEMO], quiet)).toBe(0);
    expect(warnings(quiet.errors)).toEqual([]);
    expect(quiet.lines).toContain("  elements: 0 created, 0 updated, 16 unchanged");
  }, 180_000);
});
