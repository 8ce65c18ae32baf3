import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkConfig, main, type Io } from "../src/index.ts";
import { serveOrExit } from "./serve-process.ts";

const root = resolve(import.meta.dirname, "..", "..", "..");
const demo = join(root, "examples/demo/bundle.json");
const exampleConfig = join(root, "examples/auth-extensions/lineage.config.json");

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "lineage-auth-cli-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function capture(): Io & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (line) => lines.push(line), err: (line) => errors.push(line) };
}


describe("the configuration schema", () => {
  it.each([
    [{ authentMode: "nope" }, /authentMode: "nope" is no authenticator/],
    [{ authMode: "html" }, /authMode: Invalid key/],
    [{ sessionCookie: { samesite: "sometimes" } }, /sessionCookie\.samesite: /],
    [{ sessionCookie: { secure: "yes" } }, /sessionCookie\.secure: /],
    [{ authentProvider: "internal,ghost" }, /authentProvider: names a provider that authentProvidersConfig does not configure/],
    [{ authentModeConfig: { corp: {} } }, /authentModeConfig: a custom authenticator needs a class/],
    [{ useIndexAsGuest: "true" }, /useIndexAsGuest: /],
    [{ dashboards: { url: "not a url", username: "u", password: "p" } }, /dashboards\.url: /],
    [{ trustedProxies: ["127.0.0.1", "proxy.local"] }, /trustedProxies\.1: must be an IP address or a CIDR range/],
    [{ trustedProxies: "127.0.0.1" }, /trustedProxies: /],
    [{ forwardedHeader: "x-real-ip" }, /forwardedHeader: /],
  ])("refuses %j, naming the key", (config, message) => {
    expect(() => checkConfig(config)).toThrow(message);
  });

  it("accepts every key of bundle.md, a function as authentMode, and an empty object", () => {
    expect(checkConfig({})).toEqual({});
    const config = checkConfig({
      authentMode: "corp",
      authentModeConfig: { corp: { class: "./corp.js", config: { a: 1 } }, basic: { config: { realm: "Lineage" } } },
      authentProvider: "internal, file",
      authentProvidersConfig: { file: { class: "./file.js", file: "users.json" } },
      useIndexAsGuest: true,
      sessionCookie: { samesite: "lax", httponly: true, hostonly: true, secure: true },
      dashboards: { url: "http://127.0.0.1:8088", username: "admin", password: "admin", provider: "db" },
      trustedProxies: ["127.0.0.1", "::1", "10.0.0.0/8"],
      forwardedHeader: "forwarded",
    });
    expect(config.authentProvidersConfig?.file).toEqual({ class: "./file.js", file: "users.json" });
    expect(typeof checkConfig({ authentMode: () => "html" }).authentMode).toBe("function");
  });
});

describe("lineage serve --config", () => {
  it("refuses to start with an invalid configuration, naming the key, with a non-zero status", async () => {
    const bad = join(tempDir(), "bad.json");
    writeFileSync(bad, JSON.stringify({ sessionCookie: { samesite: "sometimes" } }));
    const result = await serveOrExit(["--data", tempDir(), "--config", bad]);
    expect(result.url).toBeUndefined();
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/invalid configuration .*bad\.json/);
    expect(result.stderr).toMatch(/sessionCookie\.samesite/);
  });

  it("refuses a custom class that lacks the port's methods", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "half.mjs"), "export default class Half { checkAuthentication() {} }\n");
    writeFileSync(join(dir, "config.json"), JSON.stringify({ authentMode: "half", authentModeConfig: { half: { class: "./half.mjs" } } }));
    const result = await serveOrExit(["--data", tempDir(), "--config", join(dir, "config.json")]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/authentModeConfig\.half\.class: the class has no askAuthentication, checkAuthorization method/);
  });
});

describe("lineage token with a running server", () => {
  let server: ChildProcess;
  let url: string;
  let data: string;

  beforeAll(async () => {
    data = tempDir();
    const started = await serveOrExit(["--data", data, "--bundle", demo, "--config", exampleConfig]);
    if (!started.url) throw new Error(`serve stopped: ${started.stderr}`);
    server = started.process;
    url = started.url;
  }, 60_000);
  afterAll(() => {
    server?.kill("SIGTERM");
  });

  it("creates a token, alone on the last line, that the running server honours at once", async () => {
    const io = capture();
    const status = await main(["token", "create", "--data", data, "--user", "alice", "--route", "GET /api/v2/smart-elements/*", "--expire", "600", "--description", "from the CLI"], io);
    expect(status).toBe(0);
    const token = io.lines.at(-1)!;
    expect(token).toMatch(/^[0-9a-f]{40}$/);
    expect(io.lines.join("\n")).toContain("GET /api/v2/smart-elements/*");
    const ok = await fetch(`${url}/api/v2/smart-elements/ART_HELLO.json`, { headers: { authorization: `Token ${token}` } });
    expect(ok.status).toBe(200);
    expect((await fetch(`${url}/api/v2/trash/`, { headers: { authorization: `Token ${token}` } })).status).toBe(403);

    const list = capture();
    expect(await main(["token", "list", "--data", data], list)).toBe(0);
    const line = list.lines.find((l) => l.includes("from the CLI"))!;
    expect(line).toContain("alice");
    expect(list.lines.join("\n")).not.toContain(token);
    const id = line.split(/\s+/)[0]!;
    expect(await main(["token", "revoke", "--data", data, id], capture())).toBe(0);
    expect((await fetch(`${url}/api/v2/smart-elements/ART_HELLO.json`, { headers: { authorization: `Token ${token}` } })).status).toBe(401);
  });

  it("refuses bad token commands with a clear message", async () => {
    const noRoute = capture();
    expect(await main(["token", "create", "--data", data, "--user", "alice"], noRoute)).toBe(2);
    expect(noRoute.errors.join("\n")).toMatch(/--route is required/);
    const badRoute = capture();
    expect(await main(["token", "create", "--data", data, "--user", "alice", "--route", "GET /a[/b"], badRoute)).toBe(2);
    expect(badRoute.errors.join("\n")).toMatch(/--route "GET \/a\[\/b": .*cannot be parsed/);
    const ghost = capture();
    expect(await main(["token", "create", "--data", data, "--user", "ghost", "--route", "GET /api/*"], ghost)).toBe(2);
    expect(ghost.errors).toEqual(['lineage token create: --user: no account "ghost" (lineage user list shows them)']);
    const revoke = capture();
    expect(await main(["token", "revoke", "--data", data, "nope"], revoke)).toBe(1);
    expect(revoke.errors.join("\n")).toMatch(/Access token "nope" not found/);
  });

  it("validates logins through the configured provider chain (internal, then the users file)", async () => {
    const basic = (login: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}` });
    expect((await fetch(`${url}/api/v2/smart-elements/`, { headers: basic("dora", "dora-pw") })).status).toBe(200);
    expect((await fetch(`${url}/api/v2/smart-elements/`, { headers: basic("alice", "alice") })).status).toBe(200);
    // bob's file password also opens bob's account: the second provider confirms when the first does not.
    expect((await fetch(`${url}/api/v2/smart-elements/`, { headers: basic("bob", "bob-from-file") })).status).toBe(200);
    expect((await fetch(`${url}/api/v2/smart-elements/`, { headers: basic("dora", "wrong") })).status).toBe(401);
  });
});
