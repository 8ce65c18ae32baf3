import * as v from "valibot";
import type { DashboardRef, DashboardServer, ServerDashboard } from "@lineage/core";
import { createAnswerCache } from "./answer-cache.ts";
import { unreadable, type CallSite } from "./superset-failure.ts";
import { SupersetConnectionSchema, type SupersetConnection } from "./superset-connection.ts";
import {
  SupersetEmbeddedSchema, SupersetListSchema, SupersetShowSchema, toServerDashboard, type SupersetDashboard,
} from "./superset-dashboard.ts";
import { createSupersetSession } from "./superset-session.ts";
import { jsonOf, type Exchange } from "./superset-transport.ts";

export interface SupersetServerOptions extends v.InferInput<typeof SupersetConnectionSchema> {
  /** The longest wait for one answer of the server (ms); 5 s by default. */
  readonly timeoutMs?: number;
  /** How long answers are reused (ms); 30 s by default, 0 to ask every time. */
  readonly cacheMs?: number;
  /** Dashboard pages asked at once; Superset's own maximum is 100. */
  readonly pageSize?: number;
  /** The fetch to use; the global one by default. */
  readonly fetch?: typeof fetch;
  /** The clock of the cache (ms). */
  readonly now?: () => number;
}

const EMBEDDED_LOOKUPS_AT_ONCE = 4;
const MAX_PAGES = 1000;

/**
 * The DashboardServer port over Apache Superset's REST API v1: logs in with
 * the configured provider, keeps the bearer token, reads every page of the
 * dashboard list, and finds a dashboard by id, slug or uuid (its own uuid, or
 * the uuid of its embedding). Answers are kept `cacheMs`; each request gives
 * up after `timeoutMs`. Failures are LineageErrors DASH0101 to DASH0104.
 * @example
 * const server = createSupersetServer({ url: "http://localhost:8088", username: "lineage", password: "secret" });
 * const dashboards = await server.list();
 */
export function createSupersetServer(options: SupersetServerOptions): DashboardServer {
  const checked = v.safeParse(SupersetConnectionSchema, {
    url: options.url, username: options.username, password: options.password, provider: options.provider,
  });
  if (!checked.success) {
    const issue = checked.issues[0];
    throw new Error(`Invalid dashboard server connection: ${v.getDotPath(issue) ?? "connection"}: ${issue.message}`);
  }
  const connection: SupersetConnection = checked.output;
  const address = connection.url.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 5000;
  const pageSize = options.pageSize ?? 100;
  const session = createSupersetSession({ address, timeoutMs, fetch: options.fetch ?? globalThis.fetch }, connection);
  const cache = createAnswerCache(options.cacheMs ?? 30_000, options.now);

  const parse = <S extends v.GenericSchema>(schema: S, answer: Exchange): v.InferOutput<S> => {
    const parsed = v.safeParse(schema, jsonOf(answer));
    if (parsed.success) return parsed.output;
    const issue = parsed.issues[0];
    const where = v.getDotPath(issue) ?? "the answer";
    throw unreadable(answer.site, `${where}: ${issue.message}`);
  };

  const toPort = (site: CallSite, dashboard: SupersetDashboard, embeddedUuid?: string): ServerDashboard => {
    const found = toServerDashboard(dashboard, address, embeddedUuid);
    if (!found) throw unreadable(site, `dashboard ${dashboard.id} has no readable changed_on`);
    return found;
  };

  /** Every dashboard as the list gives it, page after page. */
  const listed = () => cache.get("list", async () => {
    const all: { site: CallSite; dashboard: SupersetDashboard }[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      // No order_column: the columns Superset accepts there vary by version; its own default order is stable between pages.
      const q = encodeURIComponent(`(page:${page},page_size:${pageSize})`);
      const answer = await session.get(`/api/v1/dashboard/?q=${q}`);
      const { count, result } = parse(SupersetListSchema, answer);
      all.push(...result.map((dashboard) => ({ site: answer.site, dashboard })));
      if (result.length === 0 || all.length >= count) break;
    }
    return all;
  });

  /** The uuid of a dashboard's embedding, or undefined when it is not embedded. */
  const embeddedUuid = (id: number) => cache.get(`embedded:${id}`, async () => {
    const answer = await session.get(`/api/v1/dashboard/${id}/embedded`);
    if (answer.status === 404) return undefined;
    return parse(SupersetEmbeddedSchema, answer).result.uuid.toLowerCase();
  });

  /** Embedding uuids of every listed dashboard, a few requests at a time. */
  const embeddings = () => cache.get("embeddings", async () => {
    const ids = (await listed()).map((entry) => entry.dashboard.id);
    const uuids = new Map<string, number>();
    for (let start = 0; start < ids.length; start += EMBEDDED_LOOKUPS_AT_ONCE) {
      const batch = ids.slice(start, start + EMBEDDED_LOOKUPS_AT_ONCE);
      const found = await Promise.all(batch.map(embeddedUuid));
      batch.forEach((id, i) => {
        const uuid = found[i];
        if (uuid) uuids.set(uuid, id);
      });
    }
    return uuids;
  });

  const byUuid = async (uuid: string): Promise<ServerDashboard | undefined> => {
    const wanted = uuid.toLowerCase();
    const all = await listed();
    const own = all.find((entry) => entry.dashboard.uuid?.toLowerCase() === wanted);
    if (own) return toPort(own.site, own.dashboard);
    const id = (await embeddings()).get(wanted);
    const embedded = id === undefined ? undefined : all.find((entry) => entry.dashboard.id === id);
    return embedded && toPort(embedded.site, embedded.dashboard, wanted);
  };

  const byIdOrSlug = (ref: string) => cache.get(`show:${ref}`, async () => {
    const answer = await session.get(`/api/v1/dashboard/${encodeURIComponent(ref)}`);
    if (answer.status === 404) return undefined;
    return toPort(answer.site, parse(SupersetShowSchema, answer).result);
  });

  return {
    address,
    async list() {
      return (await listed()).map((entry) => toPort(entry.site, entry.dashboard));
    },
    dashboard(ref: DashboardRef) {
      if ("uuid" in ref) return byUuid(ref.uuid);
      return byIdOrSlug("id" in ref ? String(ref.id) : ref.slug);
    },
  };
}
