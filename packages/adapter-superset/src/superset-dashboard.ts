import * as v from "valibot";
import type { ServerDashboard } from "@lineage/core";

const UserSchema = v.nullish(v.object({ first_name: v.nullish(v.string()), last_name: v.nullish(v.string()) }));

/**
 * A dashboard in Superset's answers (API v1): the list gives `changed_on_utc`,
 * one dashboard gives `changed_on`; older versions give `changed_by_name`,
 * newer ones `changed_by`. Keys not read here are let through.
 */
export const SupersetDashboardSchema = v.object({
  id: v.pipe(v.number(), v.integer()),
  dashboard_title: v.nullish(v.string()),
  published: v.nullish(v.boolean()),
  changed_on_utc: v.nullish(v.string()),
  changed_on: v.nullish(v.string()),
  changed_by_name: v.nullish(v.string()),
  changed_by: UserSchema,
  slug: v.nullish(v.string()),
  url: v.nullish(v.string()),
  uuid: v.nullish(v.string()),
});
export type SupersetDashboard = v.InferOutput<typeof SupersetDashboardSchema>;

/** `GET /api/v1/dashboard/?q=...` */
export const SupersetListSchema = v.object({ count: v.pipe(v.number(), v.integer()), result: v.array(SupersetDashboardSchema) });

/** `GET /api/v1/dashboard/<id_or_slug>` */
export const SupersetShowSchema = v.object({ result: SupersetDashboardSchema });

/** `GET /api/v1/dashboard/<id>/embedded` */
export const SupersetEmbeddedSchema = v.object({ result: v.object({ uuid: v.string() }) });

/**
 * The port's view of a Superset dashboard. `address` makes the url absolute;
 * `embeddedUuid` is added to the uuids that name it. Undefined when the date
 * of last change is missing or unreadable.
 */
export function toServerDashboard(dashboard: SupersetDashboard, address: string, embeddedUuid?: string): ServerDashboard | undefined {
  const changedOn = naiveUtc(dashboard.changed_on_utc ?? dashboard.changed_on ?? "");
  if (changedOn === undefined) return undefined;
  const path = dashboard.url || `/superset/dashboard/${dashboard.slug || dashboard.id}/`;
  const uuids = [dashboard.uuid, embeddedUuid].filter((uuid): uuid is string => typeof uuid === "string" && uuid !== "");
  return {
    id: dashboard.id,
    uuids: uuids.map((uuid) => uuid.toLowerCase()),
    title: dashboard.dashboard_title ?? "",
    published: dashboard.published ?? false,
    changedOn,
    changedByName: dashboard.changed_by_name ?? nameOf(dashboard.changed_by),
    slug: dashboard.slug || null,
    url: new URL(path, `${address}/`).href,
  };
}

const STAMP = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An ISO 8601 time as the spec wants it: UTC, no zone, fractional seconds.
 * Superset writes microseconds, but Python's isoformat drops them when they
 * are zero: they are put back (`.000000`). A zone other than UTC is applied.
 * @example naiveUtc("2021-05-05T13:15:31+02:00") // "2021-05-05T11:15:31.000000"
 */
export function naiveUtc(stamp: string): string | undefined {
  const match = STAMP.exec(stamp.trim());
  if (!match) return undefined;
  const [, day, time, fraction = "", zone] = match;
  const digits = fraction.padEnd(6, "0");
  if (!zone || /^(Z|[+-]00:?00)$/i.test(zone)) return `${day}T${time}.${digits}`;
  const ms = Date.parse(`${day}T${time}${zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone}`);
  if (Number.isNaN(ms)) return undefined;
  return `${new Date(ms).toISOString().slice(0, 19)}.${digits}`;
}

function nameOf(user: v.InferOutput<typeof UserSchema>): string {
  return [user?.first_name, user?.last_name].filter((part) => part && part.trim() !== "").join(" ");
}
