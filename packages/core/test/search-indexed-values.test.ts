import { describe, expect, it } from "vitest";
import { analyzerFor } from "../src/search/analyzer.ts";
import { indexedDate } from "../src/search/indexed-value.ts";
import type { RawBundle } from "../src/testing/bundle-helpers.ts";
import { searchWorld } from "../src/testing/search-world.ts";

// Issue 19, item 11: values indexed as the original indexes them (its SearchSmartElementIndex):
// dates with their weekday and month names in the domain's language, enum items with their
// parents' labels, docid values by their targets' titles, numbers as stored; the stop words of
// the domain's language neither indexed nor highlighted.

function eventsBundle(): RawBundle {
  const config = { structure: "EVENT", fields: ["ev_title", "ev_day", "ev_at", "ev_colour", "ev_speaker", "ev_price", "ev_notes"].map((field) => ({ field })), files: [], callables: [] };
  return {
    accounts: { users: [{ login: "admin", roles: ["admin"] }] },
    enumerates: {
      COLOURS: [
        { key: "blue", label: { en: "Blue", fr: "Bleu" } },
        { key: "sky", label: { en: "Sky blue", fr: "Bleu ciel" }, parentKey: "blue" },
      ],
    },
    structures: [
      { name: "PERSON", titleFields: ["pe_first", "pe_last"], fields: [{ id: "pe_first", type: "text" }, { id: "pe_last", type: "text" }] },
      {
        name: "EVENT", titleField: "ev_title",
        fields: [
          { id: "ev_title", type: "text" },
          { id: "ev_day", type: "date" },
          { id: "ev_at", type: "timestamp" },
          { id: "ev_colour", type: "enum", enum: "COLOURS" },
          { id: "ev_speaker", type: "docid", structure: "PERSON" },
          { id: "ev_price", type: "double" },
          { id: "ev_notes", type: "longtext" },
        ],
      },
    ],
    elements: [
      { structure: "PERSON", name: "P_ADA", values: { pe_first: "Ada", pe_last: "Lovelace" } },
      {
        structure: "EVENT", name: "E_TALK",
        values: { ev_title: "Engines", ev_day: "2026-03-04", ev_at: "2026-07-14T21:30:00", ev_colour: "sky", ev_speaker: "P_ADA", ev_price: 1234.5, ev_notes: "Le moteur et la machine" },
      },
      { structure: "EVENT", name: "E_OTHER", values: { ev_title: "Looms", ev_notes: "Les métiers à tisser" } },
    ],
    searchDomains: [
      { name: "events_en", lang: "en", stem: "english", configs: [config] },
      { name: "events_fr", lang: "fr", stem: "french", configs: [config] },
    ],
  };
}

describe("dates as the original indexes them", () => {
  it("are strftime's `%A %d %B %Y %m` in the domain's language, with ` %H:%M:%S` for a timestamp", () => {
    expect(indexedDate("2026-03-04", "en", false)).toBe("Wednesday 04 March 2026 03");
    expect(indexedDate("2026-03-04", "fr", false)).toBe("mercredi 04 mars 2026 03");
    expect(indexedDate("2026-07-14T21:30:00", "fr", true)).toBe("mardi 14 juillet 2026 07 21:30:00");
    expect(indexedDate("2026-07-14T21:30:00", "en", true)).toBe("Tuesday 14 July 2026 07 21:30:00");
  });
});

describe("values indexed as the original indexes them", () => {
  async function search(domain: string, q: string) {
    const { platform, as } = await searchWorld({}, eventsBundle());
    const data = await platform.fullsearch.search(await as("admin"), domain, { q });
    return data.documents.map((d) => [d.properties?.title, d.highlights]);
  }

  it("finds a date by its weekday and month names in the domain's language, and highlights them", async () => {
    expect(await search("events_en", "wednesday march")).toEqual([["Engines", expect.stringContaining("[[[Wednesday]]] 04 [[[March]]] 2026")]]);
    expect(await search("events_fr", "mercredi mars")).toEqual([["Engines", expect.stringContaining("[[[mercredi]]] 04 [[[mars]]] 2026")]]);
    expect(await search("events_fr", "juillet")).toEqual([["Engines", expect.stringContaining("mardi 14 [[[juillet]]] 2026 07 21:30:00")]]);
    expect(await search("events_en", "mercredi")).toEqual([]);
  });

  it("finds an enum item by its parents' labels, and a docid value by its target's title", async () => {
    expect(await search("events_en", "blue")).toEqual([["Engines", expect.stringContaining("[[[Blue]]] Sky [[[blue]]]")]]);
    expect(await search("events_fr", "bleu ciel")).toEqual([["Engines", expect.stringContaining("[[[Bleu]]] [[[Bleu]]] [[[ciel]]]")]]);
    expect(await search("events_en", "lovelace")).toEqual([["Engines", expect.stringContaining("Ada [[[Lovelace]]]")]]);
  });

  it("indexes numbers as stored, not as a reader's language displays them", async () => {
    expect(await search("events_fr", "1234")).toEqual([["Engines", expect.stringContaining("[[[1234]]].5")]]);
    expect(await search("events_fr", "234")).toEqual([]);
  });

  it("neither indexes nor highlights the stop words of the domain's language; french keeps \"les\" as the original", async () => {
    expect(await search("events_fr", "la")).toEqual([]);
    expect(await search("events_fr", "le moteur")).toEqual([["Engines", expect.stringContaining("[[[moteur]]] et la machine")]]);
    expect(await search("events_fr", "les")).toEqual([["Looms", expect.stringContaining("[[[Les]]] métiers")]]);
    const fr = analyzerFor("french");
    expect(fr.terms("Le moteur et la machine de été")).toEqual(["moteur", "machin", "ete"]);
  });
});
