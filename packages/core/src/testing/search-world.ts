import type { Store } from "../ports/store.port.ts";
import { createPlatform, type Platform, type PlatformOptions } from "../index.ts";
import type { Principal } from "../accounts/principal.ts";
import { createMemoryStore } from "./memory-store.ts";
import { bytes, countingHasher, folder, tickingClock, type RawBundle } from "./bundle-helpers.ts";

/** A bundle with two search domains, profiles, a lifecycle, files and a callable. */
export function searchBundle(): RawBundle {
  return {
    accounts: {
      roles: [{ id: "reader" }, { id: "fullsearch_administrator" }],
      users: [
        { login: "admin", roles: ["admin"] },
        { login: "searcher", roles: ["fullsearch_administrator"] },
        { login: "reader", roles: ["reader"] },
        { login: "outsider" },
      ],
    },
    profiles: [
      { name: "PRF_NEWS", grants: { view: ["role:reader", "role:fullsearch_administrator"], edit: ["role:reader"], delete: ["role:reader"] } },
      { name: "PRF_SECRET", grants: { view: [] } },
    ],
    lifecycles: [{
      name: "WFL_NEWS", firstState: "draft",
      states: [{ id: "draft", label: "Draft", color: "#AAAAAA" }, { id: "published", label: "Published", color: "#00AA00" }],
      transitions: [{ id: "publish", from: "draft", to: "published", label: "Publish" }],
    }],
    structures: [
      {
        name: "NEWS", profile: "PRF_NEWS", lifecycle: "WFL_NEWS", titleField: "nw_title",
        fields: [
          { id: "nw_title", type: "text" },
          { id: "nw_summary", type: "longtext" },
          { id: "nw_body", type: "htmltext" },
          { id: "nw_file", type: "file" },
        ],
      },
      { name: "SECRET", profile: "PRF_SECRET", titleField: "sc_title", fields: [{ id: "sc_title", type: "text" }] },
      { name: "NOTE", titleField: "nt_text", fields: [{ id: "nt_text", type: "text" }] },
    ],
    elements: [
      { structure: "NEWS", name: "N_TITLE", values: { nw_title: "Volcano eruption", nw_summary: "Lava flows", nw_body: "<p>Nothing else</p>" } },
      { structure: "NEWS", name: "N_BODY", values: { nw_title: "Weekly digest", nw_summary: "Various topics", nw_body: "<p>A small <b>volcano</b> woke up</p>" } },
      { structure: "NEWS", name: "N_FILE", values: { nw_title: "Attached report", nw_file: { file: "files/report.md" } } },
      { structure: "NEWS", name: "N_IMAGE", values: { nw_title: "Photo", nw_file: { file: "files/photo.png" } } },
      { structure: "SECRET", name: "S_ONE", values: { sc_title: "Secret volcano base" } },
      { structure: "NOTE", name: "NT_ONE", values: { nt_text: "Les lionnes chassent le saumon" } },
    ],
    searchDomains: [
      {
        name: "news", label: { en: "News", fr: "Actualités" }, lang: "en", stem: "english",
        configs: [
          {
            structure: "NEWS",
            fields: [{ field: "nw_title", weight: "A" }, { field: "nw_summary", weight: "B" }, { field: "nw_body", weight: "C" }],
            files: [{ field: "nw_file", weight: "D" }],
            callables: [{ name: "state", weight: "B" }],
          },
          { structure: "SECRET", fields: [{ field: "sc_title", weight: "A" }], files: [], callables: [] },
        ],
      },
      { name: "notes", lang: "fr", configs: [{ structure: "NOTE", fields: [{ field: "nt_text" }], files: [], callables: [] }] },
    ],
  };
}

export const SEARCH_FILES = {
  "files/report.md": bytes("# Report\n\nThe **geyser** erupted twice."),
  "files/photo.png": bytes("\u0089PNG not a text"),
};

export interface SearchWorld {
  readonly platform: Platform;
  /** The store the platform was made on. */
  readonly store: Store;
  readonly as: (login: string) => Promise<Principal>;
  readonly log: string[];
}

/** A platform over a memory store with the search bundle imported. */
export async function searchWorld(
  options: Partial<PlatformOptions> = {}, bundle: RawBundle = searchBundle(), files: Readonly<Record<string, Uint8Array>> = {},
): Promise<SearchWorld> {
  const log: string[] = [];
  const store = options.store ?? createMemoryStore();
  const platform = createPlatform({
    clock: tickingClock(), hasher: countingHasher(),
    searchCallables: { state: (element) => (element.state === "published" ? "published online" : "") },
    searchLog: (line) => log.push(line),
    ...options,
    store,
  });
  await platform.bundles.import(bundle, { readFile: folder({ ...SEARCH_FILES, ...files }) });
  const as = async (login: string) => {
    const principal = await platform.accounts.principal(login);
    if (!principal) throw new Error(`no account ${login}`);
    return principal;
  };
  return { platform, store, as, log };
}
