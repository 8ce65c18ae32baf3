import { request } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authOptionsOf, loadConfig, startLineage, type RunningLineage } from "@lineage/cli";

const here = resolve(import.meta.dirname, "..");
const secret = "change-me-to-a-long-secret";
let running: RunningLineage;
let dataDir: string;

/** A GET with any headers, Host included (fetch may not set it). */
function get(path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((done, fail) => {
    const req = request(`${running.url}${path}`, { headers }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (chunk) => (body += chunk)).on("end", () => done({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", fail).end();
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "lineage-auth-ext-"));
  const auth = await authOptionsOf(await loadConfig(join(here, "lineage.config.ts")));
  running = await startLineage({ dataDir, bundles: [join(here, "../demo/bundle.json")], port: 0, auth });
}, 60_000);
afterAll(async () => {
  await running?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the SSO proxy authenticator (authentModeConfig.sso)", () => {
  it("believes the proxy's header when the shared secret comes with it", async () => {
    const home = await get("/", { "x-remote-user": "alice", "x-proxy-secret": secret });
    expect(home.status).toBe(200);
    expect(home.body).toContain("<code>alice</code>");
    const api = await get("/api/v2/smart-elements/", { "x-remote-user": "bob", "x-proxy-secret": secret, accept: "application/json" });
    expect(api.status).toBe(200);
  });

  it("refuses the header without the secret, and users outside the allowed roles", async () => {
    expect((await get("/", { "x-remote-user": "alice", "x-proxy-secret": "guess" })).status).toBe(401);
    expect((await get("/api/v2/smart-elements/", { "x-remote-user": "ghost", "x-proxy-secret": secret })).status).toBe(401);
    // allowedRoles is editor and reader: an account with neither gets 403.
    await running.platform.accounts.add({ login: "eve" });
    expect((await get("/", { "x-remote-user": "eve", "x-proxy-secret": secret })).status).toBe(403);
    expect((await get("/", { "x-remote-user": "carol", "x-proxy-secret": secret })).status).toBe(200);
  });

  it("leaves the admin host name to HTTP Basic and the others to the login form (authentMode as a function)", async () => {
    const admin = await get("/", { host: "admin.example" });
    expect(admin.status).toBe(401);
    expect(String(admin.headers["www-authenticate"])).toMatch(/^Basic/);
    const www = await get("/", { host: "www.example" });
    expect([www.status, www.headers.location]).toEqual([302, "/login?return=%2F"]);
  });
});

describe("the users file provider (authentProvidersConfig.users-file)", () => {
  it("creates the platform account of a file user at first login, with the file's roles", async () => {
    expect(await running.platform.accounts.find("dora")).toBeUndefined();
    const basic = `Basic ${Buffer.from("dora:dora-pw").toString("base64")}`;
    expect((await get("/api/v2/smart-elements/", { authorization: basic, accept: "application/json" })).status).toBe(200);
    expect(await running.platform.accounts.find("dora")).toMatchObject({ displayName: "Dora from the users file", roles: ["reader"], passwordHash: null });
  });
});
