import { Option, type Command } from "commander";
import { isLineageError, normaliseTokenRoutes, systemPrincipal, type TokenExpiration } from "@lineage/core";
import type { Io } from "./io.ts";
import type { Run } from "./command-run.ts";
import { openLineage } from "./start-lineage.ts";
import { storeLocationOf, withStoreOptions, type StoreFlags } from "./store-location.ts";
import { UsageError } from "./usage-error.ts";

/** `--expire`: seconds from 1, -1 or never, or an ISO date; anything else (0, -5, soon) is a mistake. */
export function parseExpire(raw: string): TokenExpiration {
  if (raw === "-1" || raw === "never") return -1;
  if (/^\d{1,10}$/.test(raw) && Number(raw) > 0) return Number(raw);
  const date = /^\d{4}-\d{2}-\d{2}/.test(raw) ? new Date(raw) : new Date(NaN);
  if (Number.isNaN(date.getTime())) {
    throw new UsageError(`--expire takes a number of seconds from 1, -1 or never (no expiry), or an ISO date such as 2030-01-31, not "${raw}"`);
  }
  return date;
}

/** `--route`: checked as the platform checks a token's routes (a known method, a pattern that starts with / and parses). */
export function parseRoute(raw: string, previous: string[] | undefined): string[] {
  try {
    normaliseTokenRoutes([raw]);
  } catch (error) {
    if (isLineageError(error)) throw new UsageError(`--route "${raw}": ${error.message}; a route is 'METHODS PATTERN', e.g. 'GET,PUT /api/v2/smart-elements/*'`);
    throw error;
  }
  return [...(previous ?? []), raw];
}

interface CreateFlags extends StoreFlags {
  readonly user: string;
  readonly route: string[];
  readonly expire?: string;
  readonly oneshot?: boolean;
  readonly description?: string;
}

/** `lineage token create|list|revoke`. */
export function tokenCommands(program: Command, io: Io, run: Run): void {
  const token = program.command("token").description("manage access tokens: create, list, revoke");
  withStoreOptions(token.command("create").description("create an access token for an account; prints what it allows, then the token alone on the last line"))
    .requiredOption("--user <login>", "the account the token acts as")
    .addOption(new Option("--route <route>", "a route it may be used on, 'METHODS PATTERN' (e.g. 'GET /api/v2/smart-elements/*'; METHODS * or a comma list), repeatable, one at least").argParser(parseRoute).makeOptionMandatory())
    .addOption(new Option("--expire <seconds>", "its lifetime: seconds from 1, -1 or never, or an ISO date").default(undefined, "never"))
    .option("--oneshot", "spent by its first allowed use")
    .addOption(new Option("--description <text>", "what it is for, shown by token list").default(undefined, "none"))
    .action((flags: CreateFlags) => run(() => tokenCreate(flags, io)));
  withStoreOptions(token.command("list").description("list the tokens: id, login, expiry, routes, description; never a token itself"))
    .action((flags: StoreFlags) => run(() => tokenList(flags, io)));
  withStoreOptions(token.command("revoke").description("revoke tokens by id (see token list) or by the token itself"))
    .argument("<id...>", "token ids")
    .action((ids: string[], flags: StoreFlags) => run(() => tokenRevoke(ids, flags, io)));
}

/** `lineage token create`: prints what the token allows, then the token alone on the last line. */
async function tokenCreate(flags: CreateFlags, io: Io): Promise<number> {
  const expiration = flags.expire === undefined ? -1 : parseExpire(flags.expire);
  const { platform, store } = await openLineage(storeLocationOf(flags));
  try {
    if (!(await platform.accounts.find(flags.user))) throw new UsageError(`--user: no account "${flags.user}" (lineage user list shows them)`);
    const token = await platform.tokens.create(flags.user, flags.route, { expiration, oneshot: flags.oneshot ?? false, description: flags.description ?? "" });
    const created = await platform.tokens.find(token);
    if (created) {
      io.out(`Token ${created.id} for "${created.login}", ${created.oneshot ? "oneshot, " : ""}expires ${created.expiresAt ?? "never"}`);
      for (const route of created.routes) io.out(`  ${route.methods.join(",")} ${route.pattern}`);
    }
    io.out(token);
    return 0;
  } finally {
    await store.close();
  }
}

/** `lineage token list`: one line per token, never a secret. */
async function tokenList(flags: StoreFlags, io: Io): Promise<number> {
  const { platform, store } = await openLineage(storeLocationOf(flags));
  try {
    const tokens = await platform.tokens.list(systemPrincipal());
    if (tokens.length === 0) io.out("No access tokens.");
    for (const t of tokens) {
      const routes = t.routes.map((r) => `${r.methods.join(",")} ${r.pattern}`).join("; ");
      const expiry = t.expired ? "expired" : `expires ${t.expiresAt ?? "never"}`;
      io.out(`${t.id}  ${t.login}  ${expiry}${t.oneshot ? "  oneshot" : ""}  ${routes}${t.description ? `  "${t.description}"` : ""}`);
    }
    return 0;
  } finally {
    await store.close();
  }
}

/** `lineage token revoke ID...`: by public id (or by the token itself). */
async function tokenRevoke(ids: readonly string[], flags: StoreFlags, io: Io): Promise<number> {
  const { platform, store } = await openLineage(storeLocationOf(flags));
  try {
    for (const id of ids) {
      await platform.tokens.revoke(systemPrincipal(), id);
      io.out(`Token ${id.length === 40 ? `${id.slice(0, 4)}…` : id} revoked.`);
    }
    return 0;
  } finally {
    await store.close();
  }
}
