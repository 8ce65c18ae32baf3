import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlatform, createScryptPasswordHasher, readImageHeader, type Platform, type Store } from "@lineage/core";
import { createJimpImages, createJimpProcessor } from "@lineage/adapter-images";
import { startLiveServer, withTwin, type LiveServer } from "../src/live-server.ts";

// Issue 19, items 4, 5, 6 and 7, over a real server: icons never null, docid values shaped as the
// original answers them (and nothing of a target the reader may not view), enum values with their
// `exists` flag and their parents' path, dates and numbers in the reader's language. Users: admin (English), alice (French, may view the
// secret), bob (English) and bea (French) who may not.

const temp = mkdtempSync(join(tmpdir(), "lineage-values-e2e-"));
// No Images directory: the default icon comes from the built-in assets.
const images = createJimpImages({ imagesDir: undefined, cacheDir: join(temp, "cache"), processor: createJimpProcessor({ workers: 1 }) });

const BODY = '<p>Hello<br><img src="x.png" alt="x"></p>';

async function seed(store: Store) {
  const hasher = createScryptPasswordHasher({ N: 1024 });
  const platform: Platform = createPlatform({ store, hasher });
  await store.transaction(async (tx) => {
    await tx.accounts.saveRole({ id: "insider" });
    await tx.catalog.saveProfile({ name: "PRF_SECRET", grants: { view: ["role:insider"] } });
    await tx.catalog.saveEnumerate({
      name: "COLOURS",
      items: [
        { key: "blue", label: { en: "Blue", fr: "Bleu" } },
        { key: "sky", label: { en: "Sky blue", fr: "Bleu ciel" }, parentKey: "blue" },
        { key: "red", label: { en: "Red", fr: "Rouge" } },
        { key: "gone", label: "Gone" },
      ],
    });
    await tx.catalog.saveStructure({ name: "SECRET", title: "Secret", icon: "secret.png", profile: "PRF_SECRET", titleField: "se_title", fields: [{ id: "se_title", type: "text" }] });
    // Its icon is a built-in asset (the accounts' icon): served without an Images directory.
    await tx.catalog.saveStructure({ name: "PERSON", title: "Person", icon: "se-iuser.png", titleField: "pe_name", fields: [{ id: "pe_name", type: "text" }] });
    await tx.catalog.saveStructure({
      name: "MEMO", title: { en: "Memo", fr: "Note" }, titleField: "me_title",
      fields: [
        { id: "me_title", type: "text" },
        { id: "me_colour", type: "enum", enum: "COLOURS" },
        { id: "me_colours", type: "enum", enum: "COLOURS", multiple: true },
        { id: "me_ref", type: "docid", structure: "MEMO" },
        { id: "me_secret", type: "docid", structure: "SECRET" },
        { id: "me_refs", type: "docid", multiple: true },
        { id: "me_author", type: "account" },
        { id: "me_date", type: "date" },
        { id: "me_stamp", type: "timestamp" },
        { id: "me_ratio", type: "double" },
        { id: "me_body", type: "htmltext" },
      ],
    });
  });
  const admin = await platform.accounts.add({ login: "admin", password: "admin-pw", roles: ["admin"] });
  await platform.accounts.add({ login: "alice", password: "alice-pw", roles: ["insider"], locale: "fr", displayName: "Alice Martin" });
  await platform.accounts.add({ login: "bob", password: "bob-pw" });
  await platform.accounts.add({ login: "bea", password: "bea-pw", locale: "fr" });
  const system = await platform.accounts.principalOf(admin);
  const secret = await platform.elements.create(system, { structure: "SECRET", name: "SEC_ONE", values: { se_title: "Top secret plan" } });
  const target = await platform.elements.create(system, { structure: "MEMO", name: "MEMO_TARGET", values: { me_title: "Target", me_colour: "red" } });
  const person = await platform.elements.create(system, { structure: "PERSON", name: "PERSON_ANN", values: { pe_name: "Ann" } });
  await platform.elements.create(system, {
    structure: "MEMO", name: "MEMO_ONE",
    values: { me_title: "One", me_colour: "sky", me_colours: ["red", "gone"], me_ref: String(target.initid), me_secret: String(secret.initid),
      me_date: "2026-03-04", me_stamp: "2026-03-04T05:06:07", me_ratio: 1234.5, me_body: BODY,
      me_refs: [String(target.initid), String(person.initid)], me_author: "alice" },
  });
  // A key the enumerate no longer holds, as after a bundle dropped it.
  await store.catalog.saveEnumerate({ name: "COLOURS", items: (await store.catalog.enumerate("COLOURS"))!.items.filter((item) => item.key !== "gone") });
  return withTwin({ platform, store, hasher, secret, target, person });
}

let live: LiveServer<Awaited<ReturnType<typeof seed>>>;

beforeAll(async () => {
  live = await startLiveServer(seed, { images });
});

afterAll(async () => {
  await live.close();
  await images.close();
  rmSync(temp, { recursive: true, force: true });
});

const ADMIN: [string, string] = ["admin", "admin-pw"];
const ALICE: [string, string] = ["alice", "alice-pw"];
const BOB: [string, string] = ["bob", "bob-pw"];
const BEA: [string, string] = ["bea", "bea-pw"];
const DEFAULT_ICON = "/api/v2/images/assets/sizes/24x24c/doc.png";

async function attributes(as: [string, string]) {
  const answer = await live.api.call("GET", "/api/v2/smart-elements/MEMO_ONE", { as });
  expect(answer.status).toBe(200);
  return answer.json.data.document.attributes;
}

/** The status, type and width of an image the server answers. */
async function image(path: string) {
  const response = await fetch(`${live.url}${path}`, { headers: { authorization: live.api.basic(...ADMIN) } });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return [response.status, response.headers.get("content-type"), readImageHeader(bytes)?.width];
}

describe("item 4: icons are never null", () => {
  it("gives an element and a structure without icon the default icon, served by the image routes, in English and French", async () => {
    for (const as of [ADMIN, ALICE]) {
      const one = await live.api.call("GET", "/api/v2/smart-elements/MEMO_ONE", { as });
      expect(one.json.data.document.properties.icon).toBe(DEFAULT_ICON);
      const list = await live.api.call("GET", "/api/v2/smart-structures/MEMO/smart-elements/", { as });
      expect(list.json.data.documents.map((item: any) => item.properties.icon)).toEqual([DEFAULT_ICON, DEFAULT_ICON]);
      const structure = await live.api.call("GET", "/api/v2/smart-structures/MEMO", { as });
      expect(structure.json.data.document.properties.icon).toBe(DEFAULT_ICON);
    }
    expect(await image(DEFAULT_ICON)).toEqual([200, "image/png", 24]);
  });

  it("keeps the structure's own icon when it names one", async () => {
    const secret = await live.api.call("GET", "/api/v2/smart-elements/SEC_ONE", { as: ALICE });
    expect(secret.json.data.document.properties.icon).toBe("/api/v2/images/assets/sizes/24x24c/secret.png");
  });
});

describe("item 6: enum values", () => {
  it("show a child with its parents' path, in the reader's language, and flag a key no longer in the enumerate", async () => {
    const english = await attributes(ADMIN);
    expect(english.me_colour).toEqual({ value: "sky", displayValue: "Blue/Sky blue", exists: true });
    expect(english.me_colours).toEqual([{ value: "red", displayValue: "Red", exists: true }, { value: "gone", displayValue: "gone", exists: false }]);
    const french = await attributes(ALICE);
    expect(french.me_colour).toEqual({ value: "sky", displayValue: "Bleu/Bleu ciel", exists: true });
    expect(french.me_colours).toEqual([{ value: "red", displayValue: "Rouge", exists: true }, { value: "gone", displayValue: "gone", exists: false }]);
  });
});

describe("item 5: docid values", () => {
  it("carry the original's relation: familyRelation, the .html url, the small icon, revision -1, initid, fromid and the target's title", async () => {
    const { target } = live.seed;
    const memo = await live.api.call("GET", "/api/v2/smart-structures/MEMO", { as: ADMIN });
    const memoId = memo.json.data.document.properties.id;
    for (const as of [ADMIN, ALICE]) {
      expect((await attributes(as)).me_ref).toEqual({
        familyRelation: "MEMO", url: `/api/v2/smart-elements/${target.initid}.html`, icon: "/api/v2/images/assets/sizes/14x14c/doc.png",
        revision: -1, initid: target.initid, fromid: memoId, value: target.initid, displayValue: "Target",
      });
    }
    expect(await image("/api/v2/images/assets/sizes/14x14c/doc.png")).toEqual([200, "image/png", 14]);
  });

  it("give each item of a multiple docid field its target's icon at 14 pixels, as the original, each served", async () => {
    const { target, person } = live.seed;
    const refs = (await attributes(BOB)).me_refs;
    expect(refs.map((ref: any) => [ref.initid, ref.icon, ref.url, ref.displayValue])).toEqual([
      [target.initid, "/api/v2/images/assets/sizes/14x14c/doc.png", `/api/v2/smart-elements/${target.initid}.html`, "Target"],
      [person.initid, "/api/v2/images/assets/sizes/14x14c/se-iuser.png", `/api/v2/smart-elements/${person.initid}.html`, "Ann"],
    ]);
    for (const ref of refs) expect(await image(ref.icon)).toEqual([200, "image/png", 14]);
  });

  it("give account values the keys of a docid value, with the accounts' icon, served", async () => {
    for (const as of [ADMIN, BEA]) {
      expect((await attributes(as)).me_author).toEqual({
        familyRelation: "", url: null, icon: "/api/v2/images/assets/sizes/14x14c/se-iuser.png", revision: -1, initid: null, fromid: null,
        value: "alice", displayValue: "Alice Martin",
      });
    }
    expect(await image("/api/v2/images/assets/sizes/14x14c/se-iuser.png")).toEqual([200, "image/png", 14]);
    // The icon of `createdBy` in document.properties.all, at 24 pixels.
    const createdBy = (await live.api.call("GET", "/api/v2/smart-elements/MEMO_ONE?fields=document.properties.createdBy", { as: ADMIN })).json.data.document.properties.createdBy;
    expect(createdBy).toMatchObject({ title: "admin", icon: "/api/v2/images/assets/sizes/24x24c/se-iuser.png" });
    expect(await image(createdBy.icon)).toEqual([200, "image/png", 24]);
  });

  it("show a target the reader may view, and tell nothing of one they may not, in English and French", async () => {
    const { secret } = live.seed;
    const fromFrench = await attributes(ALICE);
    expect(fromFrench.me_secret).toMatchObject({ displayValue: "Top secret plan", initid: secret.initid, icon: "/api/v2/images/assets/sizes/14x14c/secret.png" });
    const hidden = { familyRelation: "SECRET", url: null, icon: null, revision: -1, initid: null, fromid: null, value: secret.initid };
    expect((await attributes(BOB)).me_secret).toEqual({ ...hidden, displayValue: "Information not accessible" });
    expect((await attributes(BEA)).me_secret).toEqual({ ...hidden, displayValue: "Information non accessible" });
    const text = JSON.stringify(await attributes(BOB));
    expect(text).not.toContain("Top secret plan");
    expect(text).not.toContain("secret.png");
  });
});

describe("item 7: dates and numbers as the original shows them, htmltext as the original cleans it", () => {
  it("shows dates month first in English, day first in French, and a double with a decimal point for every reader", async () => {
    const english = await attributes(ADMIN);
    expect([english.me_date, english.me_stamp, english.me_ratio]).toEqual([
      { value: "2026-03-04", displayValue: "03/04/2026" },
      { value: "2026-03-04T05:06:07", displayValue: "03/04/2026 05:06" },
      { value: 1234.5, displayValue: "1234.5" },
    ]);
    const french = await attributes(ALICE);
    expect([french.me_date, french.me_stamp, french.me_ratio]).toEqual([
      { value: "2026-03-04", displayValue: "04/03/2026" },
      { value: "2026-03-04T05:06:07", displayValue: "04/03/2026 05:06" },
      { value: 1234.5, displayValue: "1234.5" },
    ]);
    for (const as of [ADMIN, ALICE]) expect((await attributes(as)).me_body).toEqual({ value: BODY, displayValue: BODY });
  });

  it("cleans an htmltext up as the original does when it is written: <br>, never <br />; no comment, no handler", async () => {
    const written = '<p>Hello<br />world<!-- draft --><IMG src="x.png" onerror="alert(1)" /></p>';
    const cleaned = '<p>Hello<br>world<img src="x.png"></p>';
    const put = await live.api.call("PUT", "/api/v2/smart-elements/MEMO_TARGET", { as: ADMIN, json: { document: { attributes: { me_body: { value: written } } } } });
    expect(put.status).toBe(200);
    expect(put.json.data.document.attributes.me_body).toEqual({ value: cleaned, displayValue: cleaned });
    const read = await live.api.call("GET", "/api/v2/smart-elements/MEMO_TARGET?fields=document.attributes.me_body", { as: BEA });
    expect(read.json.data.document.attributes.me_body).toEqual({ value: cleaned, displayValue: cleaned });
  });
});
