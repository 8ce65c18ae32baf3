import { Option, type Command } from "commander";
import { HTTP_RIGHTS, LineageError, type Account, type AccountValues, type BundleProblem, type HttpRight, type Platform } from "@lineage/core";
import { passwordOffArgv } from "./account-password.ts";
import type { Io } from "./io.ts";
import type { Run } from "./command-run.ts";
import { collect } from "./repeated-flag.ts";
import { openLineage } from "./start-lineage.ts";
import { storeLocationOf, withStoreOptions, type StoreFlags } from "./store-location.ts";
import { UsageError } from "./usage-error.ts";

interface AddFlags extends StoreFlags {
  /** A string from `--password P`, false from `--no-password`. */
  readonly password?: string | false;
  readonly passwordStdin?: boolean;
  readonly name?: string;
  readonly role?: string[];
  readonly group?: string[];
  readonly locale?: string;
  readonly right?: string[];
}

/** The flag (or argument) of `user add` that gives each key of an account. */
const FLAG_OF_KEY: Record<string, string> = {
  login: "LOGIN", password: "--password", displayName: "--name", roles: "--role", groups: "--group", locale: "--locale", rights: "--right",
};

/** `--right`: one of the HTTP API's rights, in any case; checked before the store opens. */
function parseRight(raw: string, previous: string[] | undefined): string[] {
  const right = raw.toUpperCase();
  if (!(HTTP_RIGHTS as readonly string[]).includes(right)) throw new UsageError(`--right takes one of ${HTTP_RIGHTS.join(", ")}, not "${raw}"`);
  return collect(right, previous);
}

/** Opens the store for one command and closes it after. */
async function withPlatform<T>(flags: StoreFlags, work: (platform: Platform) => Promise<T>): Promise<T> {
  const { platform, store } = await openLineage(storeLocationOf(flags));
  try {
    return await work(platform);
  } finally {
    await store.close();
  }
}

/** Refuses a login that has no account, as a mistake of the command line. */
async function requireAccount(platform: Platform, login: string): Promise<void> {
  if (!(await platform.accounts.find(login))) throw new UsageError(`LOGIN: no account "${login}" (lineage user list shows them)`);
}

/**
 * The first problem of account values as a usage mistake naming the flag, with the fix: the
 * roles or groups that exist when one is unknown.
 */
async function refuseProblems(platform: Platform, values: AccountValues, problems: readonly BundleProblem[]): Promise<void> {
  const problem = problems[0];
  if (!problem) return;
  const [, key = "", index] = /^([A-Za-z]*)(?:\[(\d+)\])?/.exec(problem.path) ?? [];
  const flag = FLAG_OF_KEY[key] ?? (key || "LOGIN");
  const raw = (values as Record<string, unknown>)[key];
  const given = index === undefined ? raw : (raw as unknown[] | undefined)?.[Number(index)];
  // The value, unless the message quotes it already (or it is a password).
  const shown = typeof given === "string" && key !== "password" && !problem.message.includes(`"${given}"`) ? ` "${given}"` : "";
  let fix = "";
  if (key === "roles" || key === "groups") {
    const definitions = await platform.structures.definitions();
    const known = key === "roles" ? ["admin", ...definitions.roles().map((role) => role.id).filter((id) => id !== "admin")] : definitions.groups().map((group) => group.id);
    fix = known.length ? `; the ${key} are ${known.join(", ")}` : `; there are no ${key} yet (a bundle's accounts section defines them)`;
  }
  throw new UsageError(`${flag}${shown}: ${problem.message}${fix}`);
}

/** The password of a new account: --password, standard input, the terminal, or none with --no-password. */
async function newPassword(io: Io, login: string, flags: AddFlags): Promise<string | undefined> {
  if (flags.password === false) {
    if (flags.passwordStdin) throw new UsageError("--no-password and --password-stdin contradict each other: give one");
    return undefined;
  }
  if (typeof flags.password === "string") {
    if (flags.passwordStdin) throw new UsageError("--password and --password-stdin contradict each other: give one");
    return flags.password;
  }
  if (!flags.passwordStdin && !io.askSecret) {
    throw new UsageError("no password: give --password-stdin (e.g. --password-stdin < password.txt), run on a terminal to be asked, or --no-password for an account that logs in only through a provider or an access token");
  }
  return passwordOffArgv(io, login, flags.passwordStdin === true);
}

async function addUser(login: string, flags: AddFlags, io: Io): Promise<number> {
  const values: AccountValues = {
    login, displayName: flags.name, roles: flags.role, groups: flags.group, locale: flags.locale, rights: flags.right as HttpRight[] | undefined,
  };
  return withPlatform(flags, async (platform) => {
    if (await platform.accounts.find(login)) throw new LineageError("ACCOUNT0001", [login]);
    // Every value but the password is checked before asking for it.
    await refuseProblems(platform, values, await platform.accounts.problems(values));
    const password = await newPassword(io, login, flags);
    if (password !== undefined) await refuseProblems(platform, { login, password }, await platform.accounts.problems({ login, password }));
    const account = await platform.accounts.add({ ...values, password });
    io.out(`Account "${account.login}" added (id ${account.id}).`);
    if (password === undefined) {
      io.out(`It has no password: it logs in only through a credential provider or an access token (lineage user passwd ${account.login} sets one).`);
    }
    return 0;
  });
}

/** `user list`: one row per account, columns aligned. */
function accountTable(accounts: readonly Account[]): string[] {
  const list = (items: readonly string[]) => (items.length ? items.join(",") : "-");
  const rows = [
    ["LOGIN", "NAME", "ROLES", "GROUPS", "LOCALE", "RIGHTS", "PASSWORD", "STATUS"],
    ...accounts.map((a) => [
      a.login, a.displayName, list(a.roles), list(a.groups), a.locale, a.rights.length === HTTP_RIGHTS.length ? "all" : list(a.rights),
      a.passwordHash ? "set" : "none", a.disabled ? "disabled" : "enabled",
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join("  "));
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

/** `lineage user add|list|passwd|disable|enable|remove`. */
export function userCommands(program: Command, io: Io, run: Run): void {
  const user = program.command("user").description("manage accounts: add, list, passwd, disable, enable, remove");

  withStoreOptions(user.command("add").description("add an account; its values are checked as a bundle's are"))
    .argument("<login>", "the login: letters, digits and . _ @ - (64 at most)")
    .option("--password <password>", "its password (visible to other users of the machine: prefer --password-stdin or the prompt)")
    .option("--no-password", "no password: the account logs in only through a credential provider or an access token")
    .option("--password-stdin", "read the password from standard input (one final line break dropped)")
    .addOption(new Option("--name <text>", "the name shown for the account").default(undefined, "the login"))
    .addOption(new Option("--role <role>", "a role it holds, repeatable; the role must exist (admin always does)").argParser(collect).default(undefined, "none"))
    .addOption(new Option("--group <group>", "a group it belongs to, repeatable; the group must exist").argParser(collect).default(undefined, "none"))
    .addOption(new Option("--locale <locale>", "the locale of its labels and messages, such as en, fr or pt-BR").default(undefined, "en"))
    .addOption(new Option("--right <method>", `a global right of the HTTP API (${HTTP_RIGHTS.join(", ")}), repeatable`).argParser(parseRight).default(undefined, "all four"))
    .addHelpText("after", "\nWithout --password, --password-stdin or --no-password, the password is asked on the terminal\n(twice, not echoed); without a terminal the command is refused.")
    .action((login: string, flags: AddFlags) => run(() => addUser(login, flags, io)));

  withStoreOptions(user.command("list").description("list the accounts: login, name, roles, groups, locale, rights, password set or not, enabled or disabled"))
    .action((flags: StoreFlags) => run(() => withPlatform(flags, async (platform) => {
      const accounts = await platform.accounts.list();
      if (accounts.length === 0) io.out("No accounts.");
      else for (const line of accountTable(accounts)) io.out(line);
      return 0;
    })));

  withStoreOptions(user.command("passwd").description("set the password of an account, from a prompt on the terminal or standard input; its sessions end"))
    .argument("<login>", "the account's login")
    .option("--password-stdin", "read the password from standard input (one final line break dropped) instead of asking on the terminal")
    .action((login: string, flags: StoreFlags & { passwordStdin?: boolean }) => run(() => withPlatform(flags, async (platform) => {
      // Known before the password is asked for.
      await requireAccount(platform, login);
      const password = await passwordOffArgv(io, login, flags.passwordStdin === true);
      await refuseProblems(platform, { login, password }, await platform.accounts.problems({ login, password }));
      const { sessionsEnded } = await platform.accounts.setPassword(login, password);
      io.out(`Password of "${login}" changed; ${plural(sessionsEnded, "session")} ended.`);
      return 0;
    })));

  withStoreOptions(user.command("disable").description("disable an account: no login by form, Basic or its access tokens, its sessions end; its elements stay"))
    .argument("<login>", "the account's login")
    .action((login: string, flags: StoreFlags) => run(() => withPlatform(flags, async (platform) => {
      await requireAccount(platform, login);
      const { sessionsEnded } = await platform.accounts.setDisabled(login, true);
      io.out(`Account "${login}" disabled: it cannot log in, by any method, until lineage user enable ${login}; ${plural(sessionsEnded, "session")} ended.`);
      return 0;
    })));

  withStoreOptions(user.command("enable").description("enable a disabled account again (its access tokens work again)"))
    .argument("<login>", "the account's login")
    .action((login: string, flags: StoreFlags) => run(() => withPlatform(flags, async (platform) => {
      await requireAccount(platform, login);
      await platform.accounts.setDisabled(login, false);
      io.out(`Account "${login}" enabled.`);
      return 0;
    })));

  withStoreOptions(user.command("remove").description("remove an account with its sessions and access tokens; refused while it owns elements (disable it instead)"))
    .argument("<login>", "the account's login")
    .action((login: string, flags: StoreFlags) => run(() => withPlatform(flags, async (platform) => {
      await requireAccount(platform, login);
      const { tokensRevoked, sessionsEnded } = await platform.accounts.remove(login);
      io.out(`Account "${login}" removed, with ${plural(tokensRevoked, "access token")} and ${plural(sessionsEnded, "session")}.`);
      return 0;
    })));
}
