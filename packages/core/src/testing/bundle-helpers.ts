import type { Clock } from "../ports/clock.port.ts";
import type { PasswordHasher } from "../ports/password-hasher.port.ts";
import type { Store } from "../ports/store.port.ts";
import { createPlatform, type Platform } from "../index.ts";
import { createScryptPasswordHasher } from "../accounts/scrypt-password-hasher.ts";
import { createMemoryStore } from "./memory-store.ts";

/** Bundles in tests are raw JSON: they are meant to be wrong in any way. */
export type RawBundle = any;

/** A clock one second further at every call, so any write shows in modifiedAt. */
export function tickingClock(start = Date.parse("2024-06-01T10:00:00Z")): Clock {
  let now = start;
  return { now: () => new Date((now += 1000)) };
}

/** A cheap real hasher that counts its hash calls. */
export function countingHasher(): PasswordHasher & { hashes: number } {
  const inner = createScryptPasswordHasher({ N: 16 });
  const hasher = {
    hashes: 0,
    hash: (password: string) => {
      hasher.hashes++;
      return inner.hash(password);
    },
    verify: inner.verify,
  };
  return hasher;
}

export function testPlatform(): Platform & { hasher: ReturnType<typeof countingHasher>; store: Store } {
  const hasher = countingHasher();
  const store = createMemoryStore();
  const platform = createPlatform({ store, clock: tickingClock(), hasher });
  return Object.assign(platform, { hasher, store });
}

/** Bytes that stand for an image or a text in tests (the vault does not look inside). */
export const bytes = (text: string) => new TextEncoder().encode(text);

/** A readFile over an in-memory folder. */
export function folder(files: Readonly<Record<string, Uint8Array>>): (path: string) => Uint8Array | undefined {
  return (path) => files[path];
}

export const FILES = {
  "files/cover.png": bytes("png: cover"),
  "files/a.png": bytes("png: a"),
  "files/b.png": bytes("png: b"),
  "files/notes.txt": bytes("some notes"),
  "files/report.pdf": bytes("%PDF-1.4 report"),
};

/** A small bundle using every kind of section and value. */
export function baseBundle(): RawBundle {
  return {
    accounts: {
      roles: [{ id: "editor", label: { en: "Editors", fr: "Rédacteurs" } }, { id: "reader" }],
      groups: [{ id: "newsroom", roles: ["editor"] }],
      users: [
        { login: "admin", password: "admin", roles: ["admin"], locale: "en" },
        { login: "alice", password: "alice-pw", groups: ["newsroom"], locale: "fr", displayName: "Alice" },
        { login: "bob", password: "bob-pw", roles: ["reader"], rights: ["GET"] },
      ],
    },
    enumerates: {
      CATEGORIES: [
        { key: "tech", label: { en: "Technology", fr: "Technologie" } },
        { key: "ai", label: "Artificial intelligence", parentKey: "tech" },
        { key: "science", label: "Science" },
      ],
    },
    profiles: [{ name: "PRF_NOTE", grants: { view: ["role:editor", "user:bob"], edit: ["role:editor"], delete: ["group:newsroom"] } }],
    lifecycles: [{
      name: "WFL_NOTE",
      firstState: "draft",
      states: [{ id: "draft", label: { en: "Draft" } }, { id: "done", label: "Done", color: "#00AA00" }],
      transitions: [{
        id: "finish", from: "draft", to: "done", askComment: true, grants: ["role:editor"], hooks: { m1: "beforeFinish" },
        askAttributes: [{ id: "fi_date", type: "date", needed: true }, { id: "fi_category", type: "enum", enum: "CATEGORIES" }],
      }],
    }],
    structures: [
      { name: "PERSON", titleField: "pe_name", fields: [
        { id: "pe_name", type: "text", needed: true },
        { id: "pe_friend", type: "docid", structure: "PERSON" },
      ] },
      { name: "NOTE", title: { en: "Note", fr: "Note" }, icon: "note.png", lifecycle: "WFL_NOTE", profile: "PRF_NOTE", titleField: "no_title", fields: [
        { id: "no_title", type: "text", needed: true },
        { id: "no_body", type: "htmltext" },
        { id: "no_count", type: "int" },
        { id: "no_score", type: "double" },
        { id: "no_day", type: "date" },
        { id: "no_at", type: "timestamp" },
        { id: "no_category", type: "enum", enum: "CATEGORIES" },
        { id: "no_tags", type: "enum", enum: "CATEGORIES", multiple: true },
        { id: "no_author", type: "docid", structure: "PERSON" },
        { id: "no_readers", type: "docid", structure: "PERSON", multiple: true },
        { id: "no_picture", type: "image" },
        { id: "no_files", type: "file", multiple: true },
        { id: "no_ref", type: "text", visibility: "R" },
        { id: "no_secret", type: "text", visibility: "I" },
        { id: "no_links", type: "array", fields: [
          { id: "no_link_url", type: "text" },
          { id: "no_link_img", type: "image" },
          { id: "no_link_tags", type: "enum", enum: "CATEGORIES", multiple: true },
        ] },
      ] },
    ],
    elements: [
      { structure: "PERSON", name: "P_ANN", values: { pe_name: "Ann" } },
      { structure: "NOTE", name: "N_ONE", owner: "alice", values: {
        no_title: "First note", no_body: "<p>Hello</p>", no_count: 3, no_score: 2.5, no_day: "2024-02-29",
        no_at: "2024-03-01T10:00:00Z", no_category: "ai", no_tags: ["tech", "ai"], no_author: "P_ANN",
        no_readers: ["P_ANN"], no_picture: { file: "files/cover.png" },
        no_files: [{ file: "files/notes.txt" }, { file: "files/report.pdf" }], no_ref: "REF-1",
        no_links: [
          { no_link_url: "https://example.org/a", no_link_img: { file: "files/a.png" }, no_link_tags: ["tech"] },
          { no_link_url: "https://example.org/b" },
        ],
      } },
      { structure: "NOTE", values: { no_title: "An unnamed note", no_picture: { file: "files/cover.png" } } },
    ],
    searchDomains: [{ name: "notes", lang: "en", stem: "english", configs: [
      { structure: "NOTE", fields: [{ field: "no_title", weight: "A" }], files: [{ field: "no_files", weight: "C" }], callables: [] },
    ] }],
    dashboards: [{ slug: "notes-overview", uuid: "8f0c2a9e-1111-2222-3333-444455556666", roles: ["editor"] }],
  };
}

/** Everything a store holds, as comparable data. */
export async function snapshot(store: Store) {
  const all = (status: "alive" | "deleted") => store.elements.list({ status, orderBy: [], limit: null, offset: 0 });
  const [alive, deleted] = await Promise.all([all("alive"), all("deleted")]);
  const lineages = [...alive, ...deleted].map((latest) => latest.initid).sort((a, b) => a - b);
  return {
    lineages: await Promise.all(lineages.map(async (initid) => ({
      revisions: await store.elements.revisions(initid), history: await store.elements.history(initid), members: await store.folders.members(initid),
    }))),
    vault: await vaultFiles(store),
    structures: await store.catalog.structures(),
    dashboards: await store.catalog.dashboards(),
    roles: await store.accounts.roles(),
    groups: await store.accounts.groups(),
    accounts: await accountsOf(store),
  };
}

/** The vault's files: ids are given in sequence, so probing finds them all. */
export async function vaultFiles(store: Store) {
  const files = [];
  for (let id = 1, file = await store.vault.file(id); file; file = await store.vault.file(++id)) files.push(file);
  return files;
}

async function accountsOf(store: Store) {
  const accounts = [];
  for (let id = 1, account = await store.accounts.byId(id); account; account = await store.accounts.byId(++id)) accounts.push(account);
  return accounts;
}
