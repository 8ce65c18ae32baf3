import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main, type Io } from "../src/index.ts";
import { runLineage } from "./lineage-command.ts";
import { DEMO, basic, spawnServe, type ServeProcess } from "./serve-process.ts";

/** An Io whose standard input and terminal answers are given. */
function capture(input: { stdin?: string; terminal?: string[] } = {}): Io & { lines: string[]; errors: string[]; asked: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  const asked: string[] = [];
  const answers = [...(input.terminal ?? [])];
  return {
    lines, errors, asked,
    out: (line) => lines.push(...line.split("\n")),
    err: (line) => errors.push(...line.split("\n")),
    readStdin: async () => input.stdin ?? "",
    askSecret: input.terminal ? async (question) => {
      asked.push(question);
      return answers.shift() ?? "";
    } : undefined,
  };
}

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "lineage-users-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A data directory with the demo bundle imported (roles editor and reader, group newsroom, four accounts). */
async function demoData(): Promise<string> {
  const data = tempDir();
  expect(await main(["import", "--data", data, DEMO], capture())).toBe(0);
  return data;
}

/** Runs `lineage ARGS` as a real process. */
function lineage(args: readonly string[], stdin?: string) {
  return runLineage(args, stdin === undefined ? {} : { stdin });
}

describe("lineage user add", () => {
  it("checks roles, groups and the locale as a bundle's accounts are checked, naming the flag and the fix", async () => {
    const data = await demoData();
    const cases: Array<[string[], string]> = [
      [["--role", "nosuchrole"], 'lineage user add: --role: unknown role "nosuchrole"; the roles are admin, editor, reader, fullsearch_administrator, dashboard-admin'],
      [["--group", "ghosts"], 'lineage user add: --group: unknown group "ghosts"; the groups are newsroom'],
      [["--locale", "bad locale!"], 'lineage user add: --locale "bad locale!": a locale such as en, fr or pt-BR'],
    ];
    for (const [flags, message] of cases) {
      const io = capture();
      expect(await main(["user", "add", "--data", data, "dora", "--no-password", ...flags], io)).toBe(2);
      expect(io.errors).toEqual([message]);
    }
    const list = capture();
    await main(["user", "list", "--data", data], list);
    expect(list.lines.join("\n")).not.toContain("dora");
  });

  it("refuses an account without a password unless told, and says what one without a password can do", async () => {
    const data = await demoData();
    const none = capture();
    expect(await main(["user", "add", "--data", data, "dora"], none)).toBe(2);
    expect(none.errors).toEqual([expect.stringMatching(/^lineage user add: no password: give --password-stdin .* or --no-password for an account/)]);
    const told = capture();
    expect(await main(["user", "add", "--data", data, "dora", "--no-password", "--group", "newsroom", "--locale", "fr"], told)).toBe(0);
    expect(told.lines).toEqual([expect.stringMatching(/^Account "dora" added \(id \d+\)\.$/), expect.stringMatching(/It has no password: it logs in only through/)]);
  });

  it("takes the password from standard input, or asks it twice on the terminal", async () => {
    const data = await demoData();
    expect(await main(["user", "add", "--data", data, "erin", "--password-stdin", "--role", "reader"], capture({ stdin: "erin-pw\n" }))).toBe(0);
    const asked = capture({ terminal: ["fay-pw", "fay-pw"] });
    expect(await main(["user", "add", "--data", data, "fay"], asked)).toBe(0);
    expect(asked.asked).toEqual(['Password for "fay": ', "The same password again: "]);
    const differ = capture({ terminal: ["one", "two"] });
    expect(await main(["user", "add", "--data", data, "gus"], differ)).toBe(2);
    expect(differ.errors).toEqual(["lineage user add: the two passwords differ: run the command again"]);
    const list = capture();
    await main(["user", "list", "--data", data], list);
    const rows = list.lines.join("\n");
    expect(rows).toMatch(/^erin +erin +reader +- +en +all +set +enabled$/m);
    expect(rows).toMatch(/^fay +fay +- +- +en +all +set +enabled$/m);
    expect(rows).not.toContain("gus");
  });
});

describe("lineage user list", () => {
  it("prints a table: login, name, roles, groups, locale, rights, password, enabled or disabled", async () => {
    const data = await demoData();
    expect(await main(["user", "disable", "--data", data, "carol"], capture())).toBe(0);
    const io = capture();
    expect(await main(["user", "list", "--data", data], io)).toBe(0);
    expect(io.lines[0]).toMatch(/^LOGIN +NAME +ROLES +GROUPS +LOCALE +RIGHTS +PASSWORD +STATUS$/);
    expect(io.lines.slice(1).map((line) => line.split(/ {2,}/))).toEqual([
      ["admin", "Administrator", "admin", "-", "en", "all", "set", "enabled"],
      ["alice", "Alice Martin", "-", "newsroom", "fr", "all", "set", "enabled"],
      ["bob", "Bob Smith", "reader", "-", "en", "all", "set", "enabled"],
      ["carol", "Carol Jones", "reader", "-", "en", "GET", "set", "disabled"],
    ]);
    expect(await main(["user", "list", "--data", tempDir()], io)).toBe(0);
    expect(io.lines.at(-1)).toBe("No accounts.");
  });
});

describe("lineage user remove", () => {
  it("refuses while the account owns elements, saying how many, and removes one that owns none with its tokens", async () => {
    const data = await demoData();
    const owner = capture();
    expect(await main(["user", "remove", "--data", data, "alice"], owner)).toBe(1);
    expect(owner.errors).toEqual([expect.stringMatching(/^lineage user remove: Account "alice" owns \d+ element\(s\): it cannot be removed \(disable it instead\)$/)]);
    expect(await main(["token", "create", "--data", data, "--user", "carol", "--route", "GET /api/v2/*"], capture())).toBe(0);
    const removed = capture();
    expect(await main(["user", "remove", "--data", data, "carol"], removed)).toBe(0);
    expect(removed.lines).toEqual(['Account "carol" removed, with 1 access token and 0 sessions.']);
    const tokens = capture();
    await main(["token", "list", "--data", data], tokens);
    expect(tokens.lines).toEqual(["No access tokens."]);
    const again = capture();
    expect(await main(["user", "remove", "--data", data, "carol"], again)).toBe(2);
    expect(again.errors).toEqual(['lineage user remove: LOGIN: no account "carol" (lineage user list shows them)']);
  });
});

describe("account commands against a running server (real processes)", () => {
  let server: ServeProcess;
  let data: string;
  beforeAll(async () => {
    data = tempDir();
    server = await spawnServe(["--data", data, "--bundle", DEMO]);
  }, 60_000);
  afterAll(() => {
    server?.child.kill("SIGTERM");
  });

  const status = async (path: string, headers: Record<string, string>) => (await fetch(`${server.url}${path}`, { headers })).status;

  /** Logs in through the form; the session cookie. */
  async function formLogin(login: string, password: string): Promise<string> {
    const form = await fetch(`${server.url}/login`);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? "";
    const csrfCookie = form.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const answer = await fetch(`${server.url}/login`, {
      method: "POST", redirect: "manual",
      headers: { cookie: csrfCookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ login, password, csrf, return: "/" }).toString(),
    });
    const session = answer.headers.getSetCookie().map((c) => c.split(";")[0]!).filter((c) => !c.startsWith("lineage-login-csrf")).join("; ");
    expect(session).not.toBe("");
    return session;
  }

  it("disable: no Basic, no session, no token of the account; enable: they work again", async () => {
    const cookie = await formLogin("bob", "bob");
    const created = await lineage(["token", "create", "--data", data, "--user", "bob", "--route", "GET /api/v2/*"]);
    expect(created.status).toBe(0);
    const token = created.stdout.trim().split("\n").at(-1)!;
    const elements = "/api/v2/smart-elements/";
    expect(await status(elements, { authorization: basic("bob", "bob") })).toBe(200);
    expect(await status(elements, { cookie })).toBe(200);
    expect(await status(elements, { authorization: `Token ${token}` })).toBe(200);

    const disabled = await lineage(["user", "disable", "--data", data, "bob"]);
    expect([disabled.status, disabled.stderr]).toEqual([0, ""]);
    expect(disabled.stdout).toMatch(/^Account "bob" disabled: it cannot log in, by any method, until lineage user enable bob; 1 session ended\.$/m);
    expect(await status(elements, { authorization: basic("bob", "bob") })).toBe(401);
    expect(await status(elements, { cookie })).toBe(401);
    expect(await status(elements, { authorization: `Token ${token}` })).toBe(401);
    const refused = await fetch(`${server.url}/login`);
    expect(refused.status).toBe(200);

    expect((await lineage(["user", "enable", "--data", data, "bob"])).status).toBe(0);
    expect(await status(elements, { authorization: basic("bob", "bob") })).toBe(200);
    expect(await status(elements, { authorization: `Token ${token}` })).toBe(200);
    expect(await status(elements, { cookie })).toBe(401);
  }, 60_000);

  it("passwd: the new password from standard input works at once, the old one no more; never from an argument", async () => {
    const changed = await lineage(["user", "passwd", "--data", data, "carol", "--password-stdin"], "carol-new\n");
    expect([changed.status, changed.stderr]).toEqual([0, ""]);
    expect(changed.stdout).toMatch(/^Password of "carol" changed; 0 sessions ended\.$/m);
    expect(await status("/api/v2/smart-elements/", { authorization: basic("carol", "carol-new") })).toBe(200);
    expect(await status("/api/v2/smart-elements/", { authorization: basic("carol", "carol") })).toBe(401);
    // No terminal and no --password-stdin: refused, naming both ways.
    const blind = await lineage(["user", "passwd", "--data", data, "carol"]);
    expect(blind.status).toBe(2);
    expect(blind.stderr.trim()).toMatch(/^lineage user passwd: no password given: pipe it with --password-stdin .*, or run the command on a terminal to be asked$/);
  }, 60_000);
});
