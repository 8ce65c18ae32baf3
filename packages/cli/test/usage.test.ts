import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main, type Io } from "../src/index.ts";
import { LINEAGE } from "./lineage-command.ts";
import { ROOT } from "./serve-process.ts";

function capture(): Io & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (line) => lines.push(...line.split("\n")), err: (line) => errors.push(...line.split("\n")) };
}

const data = mkdtempSync(join(tmpdir(), "lineage-usage-"));
afterAll(() => rmSync(data, { recursive: true, force: true }));

/** Every command that runs something, with the flags its help must describe. */
const FLAGS: Record<string, string[]> = {
  serve: ["--data", "--database", "--bundle", "--seed", "--images", "--port", "--host", "--config", "--max-body", "--max-upload", "--max-json-depth",
    "--max-slice", "--max-header", "--request-timeout", "--shutdown-delay", "--shutdown-grace", "--log-level", "--synchronous"],
  import: ["--data", "--database"],
  "user add": ["--data", "--database", "--password", "--no-password", "--password-stdin", "--name", "--role", "--group", "--locale", "--right"],
  "user list": ["--data", "--database"],
  "user passwd": ["--data", "--database", "--password-stdin"],
  "user disable": ["--data", "--database"],
  "user enable": ["--data", "--database"],
  "user remove": ["--data", "--database"],
  "token create": ["--data", "--database", "--user", "--route", "--expire", "--oneshot", "--description"],
  "token list": ["--data", "--database"],
  "token revoke": ["--data", "--database"],
  "webhook add": ["--data", "--database", "--type", "--structure", "--description", "--config"],
  "webhook list": ["--data", "--database"],
  "webhook remove": ["--data", "--database"],
  "search reindex": ["--data", "--database"],
  postgres: ["--dir", "--port"],
  types: ["--data", "--database", "--out"],
};

describe("lineage --help", () => {
  it.each(Object.entries(FLAGS))("lineage %s --help describes every flag, with its default, and exits 0", async (command, flags) => {
    const io = capture();
    expect(await main([...command.split(" "), "--help"], io)).toBe(0);
    const help = io.lines.join("\n");
    expect(help).toContain(`Usage: lineage ${command}`);
    for (const flag of flags) expect(help).toMatch(new RegExp(`^  ${flag}\\b.* \\S`, "m"));
    expect(io.errors).toEqual([]);
  });

  it("gives the defaults, as the flags' own help and the environment say", async () => {
    const serve = capture();
    await main(["serve", "--help"], serve);
    const text = serve.lines.join(" ").replace(/\s+/g, " ");
    for (const shown of ["(default: ./data)", "(default: 8080, env: PORT)", "(default: 127.0.0.1)", "(default: 20MiB)", "(default: 16MiB)", "(default: 64)",
      "(default: 10000)", "(default: 16KiB)", "(default: 30)", "(default: 10)", "(default: info)", "(default: full)"]) {
      expect(text).toContain(shown);
    }
    const add = capture();
    await main(["user", "add", "--help"], add);
    expect(add.lines.join(" ").replace(/\s+/g, " ")).toContain("(default: all four)");
  });

  it("lists every command with every flag at the top level", async () => {
    const io = capture();
    expect(await main(["--help"], io)).toBe(0);
    const help = io.lines.join("\n");
    for (const [command, flags] of Object.entries(FLAGS)) {
      const section = help.slice(help.indexOf(`Usage: lineage ${command}`));
      expect(section).not.toBe(help);
      for (const flag of flags) expect(section).toContain(flag);
    }
    expect(await main(["help", "token", "create"], capture())).toBe(0);
  });
});

describe("mistakes on the command line", () => {
  const mistakes: Array<[string, string[], RegExp]> = [
    ["an unknown flag, with a suggestion", ["serve", "--prot", "1"], /^lineage serve: unknown flag --prot \(did you mean --port\?\); lineage serve --help lists the flags$/],
    ["a flag without its value", ["import", "--data"], /^lineage import: --data needs a value/],
    ["a missing argument", ["user", "add", "--data", data], /^lineage user add: LOGIN is missing/],
    ["an unknown command", ["frobnicate"], /^lineage: unknown command "frobnicate"/],
    ["an unknown subcommand", ["user", "frob"], /^lineage user: unknown command "frob"/],
    ["a negative duration", ["token", "create", "--data", data, "--user", "admin", "--route", "GET /api/*", "--expire", "-5"],
      /^lineage token create: --expire takes a number of seconds from 1, -1 or never \(no expiry\), or an ISO date such as 2030-01-31, not "-5"$/],
    ["a zero duration", ["token", "create", "--data", data, "--user", "admin", "--route", "GET /api/*", "--expire", "0"], /--expire takes .* not "0"$/],
    ["a route pattern without its leading slash", ["token", "create", "--data", data, "--user", "admin", "--route", "GET api/v2/*"],
      /^lineage token create: --route "GET api\/v2\/\*": Route pattern "api\/v2\/\*" cannot be parsed: a pattern starts with \//],
    ["an unknown method", ["token", "create", "--data", data, "--user", "admin", "--route", "FLY /api/*"], /--route "FLY \/api\/\*": .*unknown method "FLY"/],
    ["a token without route", ["token", "create", "--data", data, "--user", "admin"], /^lineage token create: --route is required/],
    ["an unknown right", ["user", "add", "--data", data, "x", "--right", "FLY"], /^lineage user add: --right takes one of GET, PUT, POST, DELETE, not "FLY"$/],
    ["a port that is none", ["serve", "--data", data, "--port", "http"], /^lineage serve: --port takes a port number from 0 to 65535, not "http"$/],
    ["a bad log level", ["serve", "--data", data, "--log-level", "loud"], /^lineage serve: --log-level takes one of/],
    ["too many arguments", ["user", "passwd", "--data", data, "a", "b"], /^lineage user passwd: too many arguments/],
    ["a password on the command line of passwd", ["user", "passwd", "--data", data, "a", "--password", "x"], /^lineage user passwd: unknown flag --password/],
  ];

  it.each(mistakes)("%s: one line naming it, exit 2", async (_what, argv, expected) => {
    const io = capture();
    expect(await main(argv, io)).toBe(2);
    expect(io.errors).toHaveLength(1);
    expect(io.errors[0]).toMatch(expected);
    expect(io.errors[0]).not.toMatch(/lineage: lineage|^error:/);
    expect(io.lines).toEqual([]);
  });

  it("run as a real process: --help exits 0 before opening anything, a mistake exits 2 with one line on stderr", () => {
    const help = spawnSync(process.execPath, [...LINEAGE, "serve", "--help"], { cwd: ROOT, encoding: "utf8" });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("--shutdown-grace <seconds>");
    expect(help.stderr).toBe("");
    const expire = spawnSync(process.execPath, [...LINEAGE, "token", "create", "--data", data, "--user", "admin", "--route", "GET /api/*", "--expire", "-5"], { cwd: ROOT, encoding: "utf8" });
    expect(expire.status).toBe(2);
    expect(expire.stderr.trim().split("\n")).toEqual([expect.stringMatching(/^lineage token create: --expire takes .* not "-5"$/)]);
    expect(expire.stdout).toBe("");
  }, 60_000);
});
