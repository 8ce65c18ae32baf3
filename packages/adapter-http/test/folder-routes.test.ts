import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Principal } from "@lineage/core";
import { seededPlatform } from "@lineage/core/testing";
import { createHttpApp } from "../src/index.ts";
import { hostileString } from "../src/testing/hostile-arbitraries.ts";

/*
 * The folder routes in process, on the memory store (which filters lists, as a folder's content
 * needs): what the content lists, and that whatever a client names, the answer is the envelope
 * with a 4xx status, never a 500. packages/integration-tests holds the end-to-end suite.
 */

const seed = await seededPlatform();
const { platform } = seed;
const alice = await seed.principal("alice");
const bob = await seed.principal("bob");
const app = (as: Principal) =>
  createHttpApp({ platform, onUnexpectedError: () => {}, authentication: async (c, next) => { c.set("principal", as); await next(); } });
const asAlice = app(alice);
const folder = (await platform.elements.createByApi(alice, "DIR", { values: { ba_title: "Alice's reading", fld_famids: ["ARTICLE"] } })).revision.initid;

async function call(method: string, path: string, as = asAlice) {
  const answer = await as.request(path, { method });
  return { status: answer.status, body: (await answer.json()) as any };
}

describe("a folder's content over HTTP", () => {
  it("lists what was put in, filtered, ordered and counted, with the folder's initid and title", async () => {
    for (const element of ["ART_HELLO", "ART_ZEBRA"]) expect((await call("PUT", `/api/v2/folders/${folder}/smart-elements/${element}`)).status).toBe(200);
    const filter = encodeURIComponent('{"field":"title","operator":"contains","value":"zeb"}');
    const { status, body } = await call("GET", `/api/v2/folders/${folder}/smart-elements/?fields=document.properties.title&orderBy=title:desc&count=1`);
    expect(status).toBe(200);
    expect(body.data.documents.map((d: any) => d.properties.title)).toEqual(["Zebra crossing", "Hello"]);
    expect(body.data.properties).toEqual({ initid: folder, title: "Alice's reading" });
    expect(body.data.requestParameters).toMatchObject({ total: 2, orderBy: "title desc, id desc" });
    const filtered = await call("GET", `/api/v2/folders/${folder}/smart-elements/?fields=document.properties.title&filter=${filter}`);
    expect(filtered.body.data.documents.map((d: any) => d.properties.title)).toEqual(["Zebra crossing"]);
    // An author is no article: the folder holds articles only.
    expect((await call("PUT", `/api/v2/folders/${folder}/smart-elements/AUTHOR_ADA`)).body.messages[0].code).toBe("CRUD0213");
    expect((await call("GET", `/api/v2/folders/${folder}/smart-elements/`, app(bob))).status).toBe(403);
  });

  it("answers every name a client may send with the envelope and a 4xx (or 501), never a 500", async () => {
    // Lone surrogates made U+FFFD, as a URL carries text.
    // "." and ".." are no names: a URL resolves them into another path (".." of a folder is the element collection).
    const name = hostileString(40).map((raw) => encodeURIComponent(new TextDecoder().decode(new TextEncoder().encode(raw)))).filter((raw) => raw !== "." && raw !== "..");
    await fc.assert(fc.asyncProperty(name, name, fc.constantFrom("GET", "PUT", "DELETE"), async (target, element, method) => {
      const path = method === "GET" ? `/api/v2/folders/${target}/smart-elements/` : `/api/v2/folders/${target}/smart-elements/${element}`;
      const answer = await asAlice.request(path, { method });
      // 501 CRUD0103: a method the path does not take (PUT on the content itself, its name empty).
      expect(answer.status === 501 || (answer.status >= 400 && answer.status < 500), `${method} ${path}: ${answer.status}`).toBe(true);
      expect(((await answer.json()) as any).success).toBe(false);
    }), { numRuns: 300 });
  });
});
