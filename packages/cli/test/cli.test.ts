import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main, type Io } from "../src/index.ts";
import { LINEAGE } from "./lineage-command.ts";

const root = resolve(import.meta.dirname, "..", "..", "..");
const demo = join(root, "examples/demo/bundle.json");

function capture(): Io & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (line) => lines.push(line), err: (line) => errors.push(line) };
}

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "lineage-cli-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe("lineage import", () => {
  it("imports the demo bundle, and a second import changes nothing", async () => {
    const data = tempDir();
    const first = capture();
    expect(await main(["import", "--data", data, demo], first)).toBe(0);
    expect(first.lines.join("\n")).toMatch(/elements: 16 created/);
    const second = capture();
    expect(await main(["import", "--data", data, demo], second)).toBe(0);
    expect(second.lines.join("\n")).toMatch(/elements: 0 created, 0 updated, 16 unchanged/);
  });

  it("refuses a bad bundle whole, listing every problem by JSON path, with status 1", async () => {
    const data = tempDir();
    const bad = join(tempDir(), "bad.json");
    writeFileSync(bad, JSON.stringify({
      structures: [{ name: "NOTE", fields: [{ id: "no_title", type: "txt" }] }],
      elements: [{ structure: "GHOST", values: {} }],
    }));
    const io = capture();
    expect(await main(["import", "--data", data, bad], io)).toBe(1);
    const text = io.errors.join("\n");
    expect(text).toContain("$.structures[0].fields[0].type");
    expect(text).toContain("$.elements[0].structure");
    const after = capture();
    await main(["import", "--data", data, demo], after);
    expect(after.lines.join("\n")).toMatch(/structures: 3 created/);
  });

  it("says what is wrong with a file that is not JSON", async () => {
    const bad = join(tempDir(), "broken.json");
    writeFileSync(bad, "{ nope");
    const io = capture();
    expect(await main(["import", "--data", tempDir(), bad], io)).toBe(1);
    expect(io.errors.join("\n")).toMatch(/broken\.json/);
  });
});

describe("lineage user add and usage", () => {
  it("adds an account once", async () => {
    const data = tempDir();
    const io = capture();
    expect(await main(["user", "add", "--data", data, "dora", "--password", "pw", "--role", "admin", "--locale", "fr"], io)).toBe(0);
    expect(io.lines[0]).toMatch(/Account "dora" added/);
    const again = capture();
    expect(await main(["user", "add", "--data", data, "dora"], again)).toBe(1);
    expect(again.errors[0]).toMatch(/already exists/);
  });

  it("answers usage errors with status 2", async () => {
    for (const argv of [[], ["frobnicate"], ["user", "add"], ["import"], ["serve", "--port", "http"], ["user", "add", "x", "--right", "FLY"]]) {
      const io = capture();
      expect(await main(argv, io)).toBe(2);
    }
  });
});

describe("lineage serve, as a real process", () => {
  let server: ChildProcess;
  let url: string;
  let data: string;

  beforeAll(async () => {
    data = tempDir();
    server = spawn(process.execPath, [...LINEAGE, "serve", "--data", data, "--bundle", demo, "--port", "0"], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    url = await new Promise<string>((resolveUrl, reject) => {
      const lines = createInterface({ input: server.stdout! });
      lines.on("line", (line) => {
        const match = /listening on (http:\/\/\S+)/.exec(line);
        if (match?.[1]) resolveUrl(match[1]);
      });
      server.once("exit", (code) => reject(new Error(`serve exited with ${code}`)));
    });
  }, 60_000);

  afterAll(() => {
    server?.kill("SIGTERM");
  });

  const auth = (login: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}` });

  it("serves the demo data behind Basic auth", async () => {
    expect((await fetch(`${url}/api/v2/smart-elements/`)).status).toBe(401);
    const response = await fetch(`${url}/api/v2/smart-elements/ART_HELLO.json`, { headers: auth("alice", "alice") });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { document: { properties: { name: string } } } };
    expect(body.data.document.properties.name).toBe("ART_HELLO");
  });

  it("sees an account added by another process on the same data directory at once", async () => {
    expect(await main(["user", "add", "--data", data, "erin", "--password", "erin-pw"], capture())).toBe(0);
    const response = await fetch(`${url}/api/v2/smart-elements/`, { headers: auth("erin", "erin-pw") });
    expect(response.status).toBe(200);
  });

  it("stops cleanly on SIGTERM", async () => {
    const exited = new Promise<number | null>((done) => server.once("exit", (code) => done(code)));
    server.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
