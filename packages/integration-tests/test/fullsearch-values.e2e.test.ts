import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlatform, createScryptPasswordHasher, type Platform, type Store } from "@lineage/core";
import { startLiveServer, withTwin, type LiveServer } from "../src/live-server.ts";

// Issue 19, item 11, over a real server: values indexed as the original indexes them, in an
// English and a French domain: dates by their weekday and month names, enum items with their
// parents' labels, docid values by their targets' titles, numbers as stored; the stop words of
// the domain's language neither found nor highlighted; the fragment ts_headline would choose.

async function seed(store: Store) {
  const hasher = createScryptPasswordHasher({ N: 1024 });
  const platform: Platform = createPlatform({ store, hasher });
  const fields = ["ev_title", "ev_day", "ev_at", "ev_colour", "ev_speaker", "ev_price", "ev_notes"].map((field) => ({ field, weight: "D" as const }));
  await store.transaction(async (tx) => {
    await tx.catalog.saveEnumerate({
      name: "COLOURS",
      items: [{ key: "blue", label: { en: "Blue", fr: "Bleu" } }, { key: "sky", label: { en: "Sky blue", fr: "Bleu ciel" }, parentKey: "blue" }],
    });
    await tx.catalog.saveStructure({ name: "PERSON", titleFields: ["pe_first", "pe_last"], fields: [{ id: "pe_first", type: "text" }, { id: "pe_last", type: "text" }] });
    await tx.catalog.saveStructure({
      name: "EVENT", titleField: "ev_title",
      fields: [
        { id: "ev_title", type: "text" }, { id: "ev_day", type: "date" }, { id: "ev_at", type: "timestamp" },
        { id: "ev_colour", type: "enum", enum: "COLOURS" }, { id: "ev_speaker", type: "docid", structure: "PERSON" },
        { id: "ev_price", type: "double" }, { id: "ev_notes", type: "longtext" },
      ],
    });
    await tx.search.saveDomain({ name: "events", lang: "en", stem: "english", configs: [{ structure: "EVENT", fields, files: [], callables: [] }] });
    await tx.search.saveDomain({ name: "evenements", lang: "fr", stem: "french", configs: [{ structure: "EVENT", fields, files: [], callables: [] }] });
  });
  const admin = await platform.accounts.add({ login: "admin", password: "admin-pw", roles: ["admin"] });
  await platform.accounts.add({ login: "alice", password: "alice-pw", roles: ["admin"], locale: "fr" });
  const system = await platform.accounts.principalOf(admin);
  const ada = await platform.elements.create(system, { structure: "PERSON", name: "P_ADA", values: { pe_first: "Ada", pe_last: "Lovelace" } });
  await platform.elements.create(system, {
    structure: "EVENT", name: "E_TALK",
    values: { ev_title: "Engines", ev_day: "2026-03-04", ev_at: "2026-07-14T21:30:00", ev_colour: "sky", ev_speaker: String(ada.initid), ev_price: 1234.5, ev_notes: "Le moteur et la machine" },
  });
  await platform.elements.create(system, { structure: "EVENT", name: "E_LOOMS", values: { ev_title: "Looms", ev_notes: "Les métiers à tisser" } });
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
const ALICE: [string, string] = ["alice", "alice-pw"];

async function found(domain: string, q: string, as = ADMIN): Promise<[string, string][]> {
  const answer = await live.api.call("GET", `/api/v2/fullsearch/domains/${domain}/smart-elements/?q=${encodeURIComponent(q)}`, { as });
  expect(answer.status).toBe(200);
  return answer.json.data.documents.map((item: any) => [item.properties.title, item.highlights]);
}

describe("item 11: values indexed as the original indexes them", () => {
  it("finds dates by weekday and month names in the domain's language, whoever asks", async () => {
    for (const as of [ADMIN, ALICE]) {
      expect(await found("events", "wednesday march", as)).toEqual([["Engines", expect.stringContaining("[[[Wednesday]]] 04 [[[March]]] 2026 03")]]);
      expect(await found("evenements", "mercredi mars", as)).toEqual([["Engines", expect.stringContaining("[[[mercredi]]] 04 [[[mars]]] 2026 03")]]);
      expect(await found("evenements", "juillet", as)).toEqual([["Engines", expect.stringContaining("mardi 14 [[[juillet]]] 2026 07 21:30:00")]]);
      expect(await found("events", "juillet", as)).toEqual([]);
    }
  });

  it("finds an enum item by its parents' labels and a docid value by its target's title", async () => {
    expect(await found("events", "blue")).toEqual([["Engines", expect.stringContaining("[[[Blue]]] Sky [[[blue]]]")]]);
    expect(await found("evenements", "bleu")).toEqual([["Engines", expect.stringContaining("[[[Bleu]]] [[[Bleu]]] ciel")]]);
    expect(await found("evenements", "lovelace")).toEqual([["Engines", expect.stringContaining("Ada [[[Lovelace]]]")]]);
  });

  it("indexes numbers as stored, not in the reader's display form", async () => {
    expect(await found("evenements", "1234", ALICE)).toEqual([["Engines", expect.stringContaining("[[[1234]]].5")]]);
  });

  it("neither finds nor highlights the domain's stop words, and cuts the fragment where ts_headline does", async () => {
    expect(await found("evenements", "la")).toEqual([]);
    // "Le" is a stop word: the query looks for "moteur" only, and "Le" is not highlighted.
    expect(await found("evenements", "le moteur")).toEqual([["Engines", expect.stringMatching(/, Le \[\[\[moteur\]\]\] et la machine$/)]]);
    expect(await found("evenements", "les")).toEqual([["Looms", "Looms, [[[Les]]] métiers à tisser"]]);
    expect(await found("events", "the engines")).toEqual([["Engines", expect.stringMatching(/^\[\[\[Engines\]\]\], Wednesday 04 March/)]]);
  });
});
