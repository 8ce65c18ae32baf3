import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlatform, createScryptPasswordHasher, type Platform, type Store } from "@lineage/core";
import { bundleSeed, startLiveServer, withTwin, type LiveServer } from "../src/live-server.ts";

// Issue 22, item 2, over a real server: the field types time, money, password, color and account,
// written by PUT (JSON and form), validated, displayed in the reader's language, sorted; a password
// never answered. Users: admin (English) and jdoe (French, display name "Jane Doe").

const PIN = "correct horse battery";

async function seed(store: Store) {
  const hasher = createScryptPasswordHasher({ N: 1024 });
  const platform: Platform = createPlatform({ store, hasher });
  await store.transaction(async (tx) => {
    await tx.catalog.saveStructure({
      name: "ITEM", title: "Item", titleField: "it_ref",
      fields: [
        { id: "it_ref", type: "text" }, { id: "it_at", type: "time" }, { id: "it_price", type: "money" },
        { id: "it_pin", type: "password" }, { id: "it_colour", type: "color" }, { id: "it_author", type: "account" },
      ],
    });
  });
  const admin = await platform.accounts.add({ login: "admin", password: "admin-pw", roles: ["admin"] });
  await platform.accounts.add({ login: "jdoe", password: "jdoe-pw", displayName: "Jane Doe", locale: "fr" });
  const system = await platform.accounts.principalOf(admin);
  await platform.elements.create(system, { structure: "ITEM", name: "IT_A", values: { it_ref: "A", it_at: "09:30", it_price: 1234.5, it_colour: "#FFAA00", it_author: "jdoe" } });
  await platform.elements.create(system, { structure: "ITEM", name: "IT_B", values: { it_ref: "B", it_at: "08:15", it_price: 99, it_colour: "#000000", it_author: "admin" } });
  return withTwin({ platform, store, hasher });
}

let live: LiveServer<Awaited<ReturnType<typeof seed>>>;

beforeAll(async () => {
  live = await startLiveServer(seed);
});

afterAll(async () => {
  await live.close();
});

const ADMIN: [string, string] = ["admin", "admin-pw"];
const JDOE: [string, string] = ["jdoe", "jdoe-pw"];

async function attributes(as: [string, string], ref = "IT_A") {
  const answer = await live.api.call("GET", `/api/v2/smart-elements/${ref}`, { as });
  expect(answer.status).toBe(200);
  return answer.json.data.document.attributes;
}

describe("field types time, money, password, color and account", () => {
  it("answers each value with its display in the reader's language", async () => {
    expect(await attributes(ADMIN)).toMatchObject({
      it_at: { value: "09:30:00", displayValue: "09:30:00" },
      it_price: { value: 1234.5, displayValue: "1,234.50" },
      it_colour: { value: "#FFAA00", displayValue: "#FFAA00" },
      it_author: { value: "jdoe", displayValue: "Jane Doe" },
      it_pin: { value: null, displayValue: null },
    });
    // Money follows the reader's language; a time keeps its seconds and a colour its case, for every reader.
    expect(await attributes(JDOE)).toMatchObject({
      it_price: { value: 1234.5, displayValue: "1 234,50" },
      it_at: { value: "09:30:00", displayValue: "09:30:00" },
      it_colour: { value: "#FFAA00", displayValue: "#FFAA00" },
    });
  });

  it("refuses a bad value with 400 naming the field, and writes nothing", async () => {
    for (const [field, raw] of [["it_at", "9h30"], ["it_price", "cheap"], ["it_colour", "teal"], ["it_author", "ghost"], ["it_pin", 42]] as const) {
      const answer = await live.api.call("PUT", "/api/v2/smart-elements/IT_B", { as: ADMIN, json: { document: { attributes: { it_ref: { value: "changed" }, [field]: { value: raw } } } } });
      expect(answer.status, field).toBe(400);
      expect(answer.json.exceptionMessage).toContain(field);
    }
    expect((await attributes(ADMIN, "IT_B")).it_ref.value).toBe("B");
  });

  it("sets a password by PUT (JSON or form) and never answers it, in the element, its revisions or its history", async () => {
    const put = await live.api.call("PUT", "/api/v2/smart-elements/IT_A", { as: ADMIN, json: { document: { attributes: { it_pin: { value: PIN } } } } });
    expect(put.status).toBe(200);
    expect(JSON.stringify(put.json)).not.toContain(PIN);
    const stored = (await live.seed.store.elements.latestByName("IT_A"))!.values.it_pin as string;
    expect(await live.seed.hasher.verify(PIN, stored)).toBe(true);

    const form = await live.api.call("PUT", "/api/v2/smart-elements/IT_A", {
      as: ADMIN, headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ it_pin: "by form" }).toString(),
    });
    expect(form.status).toBe(200);
    const byForm = (await live.seed.store.elements.latestByName("IT_A"))!.values.it_pin as string;
    expect(await live.seed.hasher.verify("by form", byForm)).toBe(true);

    const seen = await Promise.all(["", "/revisions/?fields=document.attributes", "/history", ".xml"].map((tail) =>
      live.api.call("GET", `/api/v2/smart-elements/IT_A${tail}`, { as: ADMIN })));
    for (const answer of seen) {
      expect(answer.status).toBe(200);
      for (const secret of [PIN, "by form", stored, byForm]) expect(answer.text).not.toContain(secret);
    }
  });

  it("orders a structure's list by time, money, colour and account, and refuses a password order", async () => {
    const titles = async (orderBy: string) => {
      const answer = await live.api.call("GET", `/api/v2/smart-structures/ITEM/smart-elements/?orderBy=${orderBy}`, { as: ADMIN });
      return [answer.status, answer.json.data?.documents?.map((d: { properties: { title: string } }) => d.properties.title)];
    };
    expect(await titles("it_at:asc")).toEqual([200, ["B", "A"]]);
    expect(await titles("it_price:desc")).toEqual([200, ["A", "B"]]);
    expect(await titles("it_colour:asc")).toEqual([200, ["B", "A"]]);
    expect(await titles("it_author:asc")).toEqual([200, ["B", "A"]]);
    expect((await titles("it_pin:asc"))[0]).toBe(400);
  });
});

describe("passwords in an array column (issue 34: the import stopped on them)", () => {
  const bundle = {
    accounts: { users: [{ login: "admin", password: "admin-pw", roles: ["admin"] }] },
    structures: [{
      name: "VAULT", titleField: "va_ref",
      fields: [{ id: "va_ref", type: "text" }, { id: "va_rows", type: "array", fields: [{ id: "va_label", type: "text" }, { id: "va_code", type: "password" }] }],
    }],
    elements: [{ structure: "VAULT", name: "VA_ONE", values: { va_ref: "one", va_rows: [{ va_label: "a", va_code: "alpha secret" }, { va_label: "b", va_code: "beta secret" }] } }],
  };
  let served: LiveServer<Awaited<ReturnType<ReturnType<typeof bundleSeed>>>>;
  beforeAll(async () => {
    served = await startLiveServer(bundleSeed(bundle));
  });
  afterAll(() => served?.close());

  it("imports them hashed, serves the element, and takes a new row's password by PUT, never answering one", async () => {
    const codes = async () => (await served.seed.store.elements.latestByName("VA_ONE"))!.values.va_code as string[];
    const [alpha, beta] = await codes();
    expect(await served.seed.hasher.verify("alpha secret", alpha!)).toBe(true);
    expect(await served.seed.hasher.verify("beta secret", beta!)).toBe(true);

    const read = await served.api.call("GET", "/api/v2/smart-elements/VA_ONE", { as: ADMIN });
    expect(read.status).toBe(200);
    expect(read.json.data.document.attributes.va_code).toEqual([{ value: null, displayValue: null }, { value: null, displayValue: null }]);

    const put = await served.api.call("PUT", "/api/v2/smart-elements/VA_ONE", { as: ADMIN, json: { document: { attributes: {
      va_label: [{ value: "a" }, { value: "b" }, { value: "c" }], va_code: [{ value: "alpha secret" }, { value: "" }, { value: "gamma secret" }],
    } } } });
    expect(put.status).toBe(200);
    const written = await codes();
    expect(written[0]).toBe(alpha);
    expect(written[1]).toBeNull();
    expect(await served.seed.hasher.verify("gamma secret", written[2]!)).toBe(true);
    for (const answer of [read, put, await served.api.call("GET", "/api/v2/smart-elements/VA_ONE/revisions/?fields=document.attributes", { as: ADMIN })]) {
      for (const secret of ["alpha secret", "beta secret", "gamma secret", alpha!, beta!, written[2]!]) expect(answer.text).not.toContain(secret);
    }
  });
});
