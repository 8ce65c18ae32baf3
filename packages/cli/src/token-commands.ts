import { secretHash, systemPrincipal, type TokenExpiration } from "@lineage/core";
import { parseArgs } from "node:util";
import type { Io } from "./main.ts";
import { openLineage } from "./start-lineage.ts";
import { STORE_OPTIONS, storeLocationOf } from "./store-location.ts";
import { UsageError } from "./usage-error.ts";


function parseExpire(raw: string | undefined): TokenExpiration {
  if (raw === undefined || raw === "-1" || raw === "never") return -1;
  if (/^\d{1,10}$/.test(raw) && Number(raw) > 0) return Number(raw);
  const date = /^\d{4}-\d{2}-\d{2}/.test(raw) ? new Date(raw) : new Date(NaN);
  if (Number.isNaN(date.getTime())) throw new UsageError(`--expire takes seconds, -1 (never) or an ISO date, not "${raw}"`);
  return date;
}

/** `lineage token create`: prints what the token allows, then the token alone on the last line. */
export async function tokenCreate(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...STORE_OPTIONS, user: { type: "string" }, route: { type: "string", multiple: true },
      expire: { type: "string" }, oneshot: { type: "boolean" }, description: { type: "string" },
    },
  });
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  if (!values.user) throw new UsageError("lineage token create needs --user LOGIN");
  if (!values.route?.length) throw new UsageError("lineage token create needs at least one --route 'METHODS PATTERN'");
  const expiration = parseExpire(values.expire);
  const { platform } = await openLineage(storeLocationOf(values));
  try {
    const token = await platform.getAuthorizationToken(values.user, values.route, expiration, values.oneshot ?? false, values.description ?? "");
    const id = (await platform.store.tokens.byHash(secretHash(token)))?.id;
    const created = (await platform.listAuthorizationTokens(systemPrincipal())).find((t) => t.id === id);
    if (created) {
      io.out(`Token ${created.id} for "${created.login}", ${created.oneshot ? "oneshot, " : ""}expires ${created.expiresAt ?? "never"}`);
      for (const route of created.routes) io.out(`  ${route.methods.join(",")} ${route.pattern}`);
    }
    io.out(token);
    return 0;
  } finally {
    await platform.store.close();
  }
}

/** `lineage token list`: one line per token, never a secret. */
export async function tokenList(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({ args, options: STORE_OPTIONS });
  const { platform } = await openLineage(storeLocationOf(values));
  try {
    const tokens = await platform.listAuthorizationTokens(systemPrincipal());
    if (tokens.length === 0) io.out("No access tokens.");
    for (const t of tokens) {
      const routes = t.routes.map((r) => `${r.methods.join(",")} ${r.pattern}`).join("; ");
      const expiry = t.expired ? "expired" : `expires ${t.expiresAt ?? "never"}`;
      io.out(`${t.id}  ${t.login}  ${expiry}${t.oneshot ? "  oneshot" : ""}  ${routes}${t.description ? `  "${t.description}"` : ""}`);
    }
    return 0;
  } finally {
    await platform.store.close();
  }
}

/** `lineage token revoke ID...`: by public id (or by the token itself). */
export async function tokenRevoke(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: STORE_OPTIONS });
  if (positionals.length === 0) throw new UsageError("lineage token revoke takes the ID of a token (see lineage token list)");
  const { platform } = await openLineage(storeLocationOf(values));
  try {
    for (const id of positionals) {
      await platform.revokeAuthorizationToken(systemPrincipal(), id);
      io.out(`Token ${id.length === 40 ? `${id.slice(0, 4)}…` : id} revoked.`);
    }
    return 0;
  } finally {
    await platform.store.close();
  }
}
