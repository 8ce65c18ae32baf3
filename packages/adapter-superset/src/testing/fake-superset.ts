import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A dashboard the stand-in holds, in Superset's own words. */
export interface FakeDashboard {
  id: number;
  dashboard_title: string;
  slug: string | null;
  published: boolean;
  /** Naive UTC with microseconds, as Superset stores it (`2024-03-04T05:06:07.123456`). */
  changed_on: string;
  changed_by: { first_name: string; last_name: string } | null;
  /** The dashboard's own uuid. */
  uuid: string;
  /** The uuid of its embedding, when it is embedded. */
  embedded?: string;
}

/** Settings a test turns while the stand-in runs. */
export interface FakeKnobs {
  username: string;
  password: string;
  /** Delay before every answer (ms). */
  delayMs: number;
  /** Superset's largest page of the list. */
  maxPageSize: number;
  /** Older Superset: `changed_by_name` in the list instead of `changed_by`. */
  legacyNames: boolean;
  /** Whether list items carry `uuid` (some versions do not). */
  listUuids: boolean;
  /** Answer data routes with an HTML error page (a proxy in front of a dead Superset). */
  brokenJson: boolean;
}

/** A stand-in Apache Superset (REST API v1) on 127.0.0.1, with knobs and counters. */
export interface FakeSuperset {
  readonly url: string;
  readonly dashboards: FakeDashboard[];
  readonly knobs: FakeKnobs;
  /** Requests by `METHOD path` (query left out); `POST /api/v1/security/login` counts the logins. */
  readonly counts: Map<string, number>;
  count(call: string): number;
  /** Every token given so far stops working (401 "Token has expired"). */
  expireTokens(): void;
  /** Stops listening: later requests are refused at the connection. */
  close(): Promise<void>;
}

/**
 * Starts a stand-in Superset on a free loopback port: the login, list, show
 * and embedded endpoints with the JSON shapes of Superset's API v1.
 * @example
 * const superset = await startFakeSuperset([fakeDashboard(1, "Sales")]);
 */
export async function startFakeSuperset(dashboards: FakeDashboard[] = []): Promise<FakeSuperset> {
  const knobs: FakeKnobs = {
    username: "lineage", password: "superset-pw", delayMs: 0, maxPageSize: 100, legacyNames: false, listUuids: true, brokenJson: false,
  };
  const counts = new Map<string, number>();
  const tokens = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  };

  const listItem = (d: FakeDashboard) => ({
    id: d.id, dashboard_title: d.dashboard_title, slug: d.slug, url: `/superset/dashboard/${d.slug ?? d.id}/`, published: d.published,
    changed_on_utc: `${d.changed_on}+00:00`, changed_on_delta_humanized: "a day ago", status: d.published ? "published" : "draft",
    owners: [{ id: 1, first_name: "Superset", last_name: "Admin" }], certified_by: null, css: "", json_metadata: "{}", position_json: "{}",
    thumbnail_url: `/api/v1/dashboard/${d.id}/thumbnail/abc/`, roles: [], tags: [],
    ...(knobs.legacyNames
      ? { changed_by_name: d.changed_by ? `${d.changed_by.first_name} ${d.changed_by.last_name}` : "", changed_by_url: "/superset/profile/admin" }
      : { changed_by: d.changed_by && { id: 1, ...d.changed_by } }),
    ...(knobs.listUuids ? { uuid: d.uuid } : {}),
  });

  const showItem = (d: FakeDashboard) => ({
    id: d.id, dashboard_title: d.dashboard_title, slug: d.slug, url: `/superset/dashboard/${d.slug ?? d.id}/`, published: d.published,
    changed_on: d.changed_on, changed_on_delta_humanized: "a day ago", css: "", json_metadata: "{}", position_json: "{}",
    certified_by: null, certification_details: null, charts: [], owners: [], roles: [], tags: [], is_managed_externally: false,
    changed_by_name: d.changed_by ? `${d.changed_by.first_name} ${d.changed_by.last_name}` : "",
    changed_by: d.changed_by && { id: 1, ...d.changed_by }, uuid: d.uuid,
  });

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://fake");
    const call = `${req.method} ${url.pathname}`;
    counts.set(call, (counts.get(call) ?? 0) + 1);
    const body = await readBody(req);
    if (knobs.delayMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => { timers.delete(timer); resolve(); }, knobs.delayMs);
        timers.add(timer);
      });
    }
    if (res.destroyed) return;

    if (call === "POST /api/v1/security/login") {
      let input: Record<string, unknown>;
      try {
        input = JSON.parse(body) as Record<string, unknown>;
      } catch {
        return send(res, 400, { message: "Request is not JSON" });
      }
      if (input.provider !== "db" && input.provider !== "ldap") return send(res, 400, { message: { provider: ["Must be one of: db, ldap."] } });
      if (input.username !== knobs.username || input.password !== knobs.password) return send(res, 401, { message: "Not authorized" });
      const token = randomUUID();
      tokens.add(token);
      return send(res, 200, { access_token: token, ...(input.refresh ? { refresh_token: randomUUID() } : {}) });
    }
    if (!url.pathname.startsWith("/api/v1/dashboard")) return send(res, 404, { message: "Not found" });
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (!bearer) return send(res, 401, { msg: "Missing Authorization Header" });
    if (!tokens.has(bearer)) return send(res, 401, { msg: "Token has expired" });
    if (knobs.brokenJson) return void res.writeHead(200, { "content-type": "text/html" }).end("<html><body>502 Bad Gateway</body></html>");

    if (url.pathname === "/api/v1/dashboard/" || url.pathname === "/api/v1/dashboard") {
      const q = url.searchParams.get("q") ?? "";
      const page = Number(/page:(\d+)/.exec(q)?.[1] ?? 0);
      const size = Math.min(Number(/page_size:(\d+)/.exec(q)?.[1] ?? 25), knobs.maxPageSize);
      const ordered = [...dashboards].sort((a, b) => a.id - b.id);
      const slice = ordered.slice(page * size, page * size + size);
      return send(res, 200, {
        count: ordered.length, ids: slice.map((d) => d.id), result: slice.map(listItem),
        list_columns: [], list_title: "List Dashboard", order_columns: ["changed_on_delta_humanized", "dashboard_title"],
      });
    }
    const embedded = /^\/api\/v1\/dashboard\/([^/]+)\/embedded\/?$/.exec(url.pathname);
    const show = /^\/api\/v1\/dashboard\/([^/]+)\/?$/.exec(url.pathname);
    const ref = decodeURIComponent((embedded ?? show)?.[1] ?? "");
    const found = dashboards.find((d) => String(d.id) === ref || d.slug === ref);
    if (!found) return send(res, 404, { message: "Not found" });
    if (embedded) {
      if (!found.embedded) return send(res, 404, { message: "Not found" });
      return send(res, 200, {
        result: { uuid: found.embedded, dashboard_id: String(found.id), allowed_domains: [], changed_on: found.changed_on, changed_by: null },
      });
    }
    return send(res, 200, { id: found.id, result: showItem(found) });
  }

  const server = createServer((req, res) => {
    answer(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    dashboards,
    knobs,
    counts,
    count: (call) => counts.get(call) ?? 0,
    expireTokens: () => tokens.clear(),
    close: () => new Promise<void>((resolve) => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** A dashboard for the stand-in, with plausible Superset values. */
export function fakeDashboard(id: number, title: string, extra: Partial<FakeDashboard> = {}): FakeDashboard {
  return {
    id, dashboard_title: title, slug: `${title.toLowerCase().replace(/\W+/g, "-")}`, published: true,
    changed_on: `2024-03-0${id % 10}T05:06:07.${String(123456 + id)}`, changed_by: { first_name: "Ada", last_name: "Lovelace" },
    uuid: `00000000-0000-4000-8000-${String(id).padStart(12, "0")}`, ...extra,
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => { text += chunk; });
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}
