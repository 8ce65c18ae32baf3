import type { HistoryEntry } from "../elements/history-entry.ts";
import type { NewRevision } from "../elements/smart-element.ts";
import type { Lifecycle } from "../lifecycle/lifecycle.ts";
import type { NewAccount } from "../ports/account-repository.port.ts";
import type { StructureDefinition } from "../structures/smart-structure.ts";

/** What the store contract suites write: small valid records, each overridable. */

/** An id no store of the contract suites reaches. */
export const MISSING_ID = 987_654_321;

/** A distinct ISO date per day number. */
export function date(day: number): string {
  return new Date(Date.UTC(2024, 0, day, 12, 30, 15, 250)).toISOString();
}

/** The bytes of an ASCII text. */
export function bytes(text: string): Uint8Array {
  return Uint8Array.from(text, (character) => character.charCodeAt(0));
}

export function draft(overrides: Partial<NewRevision> = {}): NewRevision {
  return {
    revision: 0, structure: "article", name: null, title: "Untitled", owner: 1, status: "alive", fixed: false,
    state: null, values: {}, createdAt: date(1), modifiedAt: date(1), importKey: null, ownProfile: null, profile: null, ...overrides,
  };
}

export function entry(overrides: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    initid: 1, revisionId: 1, revision: 0, accountId: 1, accountName: "admin", date: date(1), level: "info",
    code: "MODIFY", comment: "", ...overrides,
  };
}

export function account(login: string, overrides: Partial<NewAccount> = {}): NewAccount {
  return {
    login, displayName: login.toUpperCase(), passwordHash: "$scrypt$hash", roles: ["writer"], groups: [],
    locale: "fr-FR", rights: ["GET", "PUT", "POST", "DELETE"], disabled: false, ...overrides,
  };
}

export function richStructure(name: string): StructureDefinition {
  return {
    name, title: { en: "Article", fr: "Article" }, icon: "article.png", lifecycle: "flow", profile: "private", titleField: "ba_title",
    fields: [
      { id: "ba_title", type: "text", label: "Title", needed: true },
      { id: "ba_rows", type: "array", fields: [{ id: "ba_cell", type: "enum", enum: "colors", multiple: true, visibility: "R" }] },
      { id: "ba_link", type: "docid", structure: "other", options: { multiple: "yes" } },
    ],
  };
}

export function lifecycle(name: string): Lifecycle {
  return {
    name, label: "Flow", firstState: "draft",
    states: [{ id: "draft", label: "Draft", color: "#ccc" }, { id: "done", activity: { en: "Done" } }],
    transitions: [{
      id: "finish", from: "draft", to: "done", askComment: true, grants: ["role:writer"], hooks: { m1: "notify" },
      askAttributes: [{ id: "why", type: "text", needed: true }],
    }],
  };
}

/** A promise with its resolve function: lets a test hold a transaction open at a chosen await. */
export function deferred<T = void>(): { readonly promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** Sorted by id, for results that come in no particular order. */
export function byId<T extends { readonly id: number }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => a.id - b.id);
}

/** Sorted by name, for results that come in no particular order. */
export function byName<T extends { readonly name: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
