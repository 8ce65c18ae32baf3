import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { createScryptPasswordHasher, type ConfirmedCredential, type CredentialProvider } from "@lineage/core";

/** One entry of the users file: a scrypt hash (`pnpm hash-password`), never a clear password. */
interface FileUser {
  readonly login: string;
  readonly password: string;
  readonly displayName?: string;
  readonly roles?: readonly string[];
}

// Compared against when the login is unknown, so unknown logins cost the same time as known ones.
const DECOY = "scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

/**
 * A credential provider that reads a JSON users file, e.g. one an outside
 * tool writes. Its users get a platform account (no password there) the
 * first time they log in, with the file's roles.
 *
 * Configuration:
 * "authentProvidersConfig": { "users-file": { "class": "./src/users-file-provider.ts", "file": "./users.json" } }
 */
export default class UsersFileProvider implements CredentialProvider {
  readonly id: string;
  readonly #file: string;
  readonly #hasher = createScryptPasswordHasher();
  #cache: { mtimeMs: number; users: Map<string, FileUser> } | undefined;

  constructor(options: { file?: unknown }, context: { id: string; configDir: string }) {
    if (typeof options.file !== "string") throw new Error(`authentProvidersConfig.${context.id}.file must name the users file`);
    this.id = context.id;
    this.#file = resolve(context.configDir, options.file);
    this.#users();
  }

  async validateCredential(login: string, password: string): Promise<ConfirmedCredential | undefined> {
    const user = this.#users().get(login);
    const ok = await this.#hasher.verify(password, user?.password ?? DECOY);
    if (!user || !ok) return undefined;
    return { login, account: { displayName: user.displayName ?? login, roles: user.roles ?? [] } };
  }

  /** The file's users, read again when the file changes. */
  #users(): Map<string, FileUser> {
    const { mtimeMs } = statSync(this.#file);
    if (this.#cache?.mtimeMs !== mtimeMs) {
      const users = JSON.parse(readFileSync(this.#file, "utf8")) as FileUser[];
      this.#cache = { mtimeMs, users: new Map(users.map((user) => [user.login, user])) };
    }
    return this.#cache.users;
  }
}
