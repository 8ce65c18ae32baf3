import { Option, type Command } from "commander";
import { EVENT_TYPES, systemPrincipal, type EventType } from "@lineage/core";
import { loadConfig } from "./config/load-config.ts";
import type { Io } from "./io.ts";
import type { Run } from "./command-run.ts";
import { openLineage } from "./start-lineage.ts";
import { storeLocationOf, withStoreOptions, type StoreFlags } from "./store-location.ts";
import { UsageError } from "./usage-error.ts";

/** `--type`: an event type, checked at once. */
export function parseEventType(raw: string, previous: EventType[] | undefined): EventType[] {
  if (!(EVENT_TYPES as readonly string[]).includes(raw)) throw new UsageError(`--type "${raw}" is no event type: ${EVENT_TYPES.join(", ")}`);
  return [...(previous ?? []), raw as EventType];
}

/** `--structure`: a structure name, repeatable. */
function collectStructure(raw: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), raw];
}

interface AddFlags extends StoreFlags {
  readonly type?: EventType[];
  readonly structure?: string[];
  readonly description?: string;
  readonly config?: string;
}

/** `lineage webhook add|list|remove`. */
export function webhookCommands(program: Command, io: Io, run: Run): void {
  const webhook = program.command("webhook").description("manage outgoing webhooks: add, list, remove");
  withStoreOptions(webhook.command("add").description("register a webhook: every matching event is POSTed to URL, signed; prints its id, then its secret alone on the last line (shown once)"))
    .argument("<url>", "where events are POSTed (http or https; not a private network unless the configuration allows it)")
    .addOption(new Option("--type <type>", `only events of this type, repeatable: ${EVENT_TYPES.join(", ")}`).argParser(parseEventType).default(undefined, "every type"))
    .addOption(new Option("--structure <name>", "only events of elements of this Smart Structure, repeatable").argParser(collectStructure).default(undefined, "every structure"))
    .addOption(new Option("--description <text>", "what it is for, shown by webhook list").default(undefined, "none"))
    .addOption(new Option("--config <file>", "the configuration file whose webhooks.allowPrivateNetworks applies (docs/configuration.md)"))
    .action((url: string, flags: AddFlags) => run(() => webhookAdd(url, flags, io)));
  withStoreOptions(webhook.command("list").description("list the webhooks: id, status, URL, what they receive, their last delivery; never a secret"))
    .action((flags: StoreFlags) => run(() => webhookList(flags, io)));
  withStoreOptions(webhook.command("remove").description("remove webhooks by id (see webhook list), with their deliveries"))
    .argument("<id...>", "webhook ids")
    .action((ids: string[], flags: StoreFlags) => run(() => webhookRemove(ids, flags, io)));
}

/** `lineage webhook add URL`: prints what it receives, then the secret alone on the last line. */
async function webhookAdd(url: string, flags: AddFlags, io: Io): Promise<number> {
  const loaded = flags.config ? await loadConfig(flags.config) : undefined;
  const { platform, store } = await openLineage(storeLocationOf(flags), [], { webhooks: loaded?.config.webhooks });
  try {
    const created = await platform.webhooks.create(systemPrincipal(), {
      url, ...(flags.type ? { types: flags.type } : {}), ...(flags.structure ? { structures: flags.structure } : {}),
      ...(flags.description === undefined ? {} : { description: flags.description }),
    });
    io.out(`Webhook ${created.id} to ${created.url}: ${receives(created)}`);
    io.out(created.secret);
    return 0;
  } finally {
    await store.close();
  }
}

/** `lineage webhook list`: one line per webhook, never a secret. */
async function webhookList(flags: StoreFlags, io: Io): Promise<number> {
  const { platform, store } = await openLineage(storeLocationOf(flags));
  try {
    const webhooks = await platform.webhooks.list(systemPrincipal());
    if (webhooks.length === 0) io.out("No webhooks.");
    for (const w of webhooks) {
      const last = w.lastDelivery
        ? `last delivery: seq ${w.lastDelivery.seq} ${w.lastDelivery.status}, ${w.lastDelivery.attempts} attempt(s)${w.lastDelivery.lastError ? ` (${w.lastDelivery.lastError})` : ""}`
        : "no delivery yet";
      io.out(`${w.id}  ${w.status}  ${w.url}  ${receives(w)}  ${last}${w.description ? `  "${w.description}"` : ""}`);
    }
    return 0;
  } finally {
    await store.close();
  }
}

/** `lineage webhook remove ID...`. */
async function webhookRemove(ids: readonly string[], flags: StoreFlags, io: Io): Promise<number> {
  const { platform, store } = await openLineage(storeLocationOf(flags));
  try {
    for (const id of ids) {
      await platform.webhooks.remove(systemPrincipal(), id);
      io.out(`Webhook ${id} removed.`);
    }
    return 0;
  } finally {
    await store.close();
  }
}

function receives(webhook: { readonly types: readonly string[]; readonly structures: readonly string[] }): string {
  const types = webhook.types.length > 0 ? webhook.types.join(",") : "every type";
  const structures = webhook.structures.length > 0 ? webhook.structures.join(",") : "every structure";
  return `${types} of ${structures}`;
}
