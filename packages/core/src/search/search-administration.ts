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

/** Files of elements changed but not indexed yet: they wait. */
async function waitingFiles(engine: SearchEngine, domain: SearchDomain): Promise<number> {
  const seq = engine.index.coverage(domain.name)?.seq ?? 0;
  const changes = await engine.store.search.changesAfter(seq, 1000);
  const withFiles = changes.filter((change) => configsOf(domain, change.structure).some((config) => config.files.length > 0)).map((change) => change.initid);
  if (withFiles.length === 0) return 0;
  const alive = (await engine.store.elements.latestMany(withFiles)).filter((element) => element.status === "alive");
  return indexedFileIds(domain, alive).length;
}

/** One domain entry: its configuration and what its index holds. */
async function describeDomain(engine: SearchEngine, domain: SearchDomain, locale: string) {
  await engine.open(domain);
  const stats = engine.index.stats(domain.name);
  const structures = domainStructures(domain);
  const [toIndex, dirty, waiting] = await Promise.all([
    engine.store.search.aliveCounts(structures),
    engine.store.search.changedAfterByStructure(engine.index.coverage(domain.name)?.seq ?? 0),
    waitingFiles(engine, domain),
  ]);
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
