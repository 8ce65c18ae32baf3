import type { Principal } from "../accounts/principal.ts";
import { requireAccess } from "../access/authorization-guard.ts";
import { translate } from "../i18n/label.ts";
import type { IndexedFileStatus } from "../ports/search-index.port.ts";
import { indexedFileIds } from "./element-text.ts";
import { configsOf, domainStructures, type SearchDomain } from "./search-domain.ts";
import type { SearchEngine } from "./search-engine.ts";
import { sizeEntry } from "./size-text.ts";

/** The role that administers search domains (admin may too). */
export const FULLSEARCH_ADMINISTRATOR = "fullsearch_administrator";

const FILE_LABELS: Readonly<Record<IndexedFileStatus, string>> = { D: "Succeed", K: "Failing", W: "Waiting" };

function guard(principal: Principal, method: string): void {
  requireAccess(principal, { route: `${method} /api/admin/fullsearch/domains/`, anyRole: [FULLSEARCH_ADMINISTRATOR] });
}

/** `YYYY-MM-DD HH:MM:SS` (UTC), the original's date format. */
function sqlDate(date: Date): string {
  return date.toISOString().slice(0, 19).replace("T", " ");
}

/**
 * The elements changed after an index's position (events it has not applied yet), with their
 * structure: a folder's membership event changes the element added or removed, read for its structure.
 */
async function pendingElements(engine: SearchEngine, seq: number): Promise<Map<number, string>> {
  const pending = new Map<number, string | undefined>();
  for (let from = seq; ;) {
    const events = await engine.store.events.after(from, 1000);
    if (events.length === 0) break;
    for (const event of events) {
      if (event.type === "folder.added" || event.type === "folder.removed") {
        if (event.element !== undefined && !pending.has(event.element)) pending.set(event.element, undefined);
      } else {
        pending.set(event.initid, event.structure);
      }
    }
    from = events[events.length - 1]!.seq;
  }
  const unknown = [...pending].filter(([, structure]) => structure === undefined).map(([initid]) => initid);
  const found = new Map((await engine.store.elements.latestMany(unknown)).map((element) => [element.initid, element.structure]));
  const known = new Map<number, string>();
  for (const [initid, structure] of pending) {
    const named = structure ?? found.get(initid);
    if (named !== undefined) known.set(initid, named);
  }
  return known;
}

/** Files of elements changed but not indexed yet: they wait. */
async function waitingFiles(engine: SearchEngine, domain: SearchDomain, pending: ReadonlyMap<number, string>): Promise<number> {
  const withFiles = [...pending].filter(([, structure]) => configsOf(domain, structure).some((config) => config.files.length > 0)).map(([initid]) => initid);
  if (withFiles.length === 0) return 0;
  const alive = (await engine.store.elements.latestMany(withFiles)).filter((element) => element.status === "alive");
  return indexedFileIds(domain, alive).length;
}

/** How many elements of each structure changed after an index's position. */
function dirtyByStructure(pending: ReadonlyMap<number, string>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const structure of pending.values()) counts[structure] = (counts[structure] ?? 0) + 1;
  return counts;
}

/** One domain entry: its configuration and what its index holds. */
async function describeDomain(engine: SearchEngine, domain: SearchDomain, locale: string) {
  await engine.open(domain);
  const stats = engine.index.stats(domain.name);
  const structures = domainStructures(domain);
  const [toIndex, pending] = await Promise.all([
    engine.store.search.aliveCounts(structures),
    pendingElements(engine, engine.index.coverage(domain.name)?.seq ?? 0),
  ]);
  const dirty = dirtyByStructure(pending);
  const waiting = await waitingFiles(engine, domain, pending);
  const files = { ...stats.files, W: waiting };
  return {
    name: domain.name,
    lang: domain.lang,
    stem: domain.stem,
    description: translate(domain.label ?? domain.name, locale),
    configs: domain.configs,
    database: {
      structures: Object.fromEntries(structures.map((s) => [s, {
        totalToIndex: toIndex[s] ?? 0,
        totalIndexed: stats.documents[s] ?? 0,
        totalDirty: dirty[s] ?? 0,
      }])),
      files: (["D", "K", "W"] as const).map((status) => ({ status, count: files[status], label: FILE_LABELS[status] })),
      size: sizeEntry(stats.bytes),
    },
  };
}

/** GET /api/admin/fullsearch/domains/: every domain with its configuration and volumes (role fullsearch_administrator or admin). */
export async function describeSearchDomains(principal: Principal, engine: SearchEngine) {
  guard(principal, "GET");
  const config = [];
  // One domain after the other: each may have to load or build its index first.
  for (const domain of await engine.domains()) config.push(await describeDomain(engine, domain, principal.account.locale));
  return {
    config,
    fileCacheSize: sizeEntry(engine.fileTexts.size()),
    nextUpdateDate: sqlDate(engine.nextUpdate()),
  };
}

/** The domains with their configuration and volumes, as administrators see them. */
export type DomainDescriptions = Awaited<ReturnType<typeof describeSearchDomains>>;

/** The elements reindexed, by domain. */
export type ReindexReport = Record<string, { id: number; title: string }[]>;

/** POST /api/admin/fullsearch/domains/: reindexes what is outdated; the elements reindexed per domain. */
export async function reindexSearchDomains(principal: Principal, engine: SearchEngine): Promise<ReindexReport> {
  guard(principal, "POST");
  const report = await engine.reindexOutdated();
  return Object.fromEntries(Object.entries(report).map(([name, elements]) => [name, elements.map((e) => ({ id: e.initid, title: e.title }))]));
}
