import { describe, expect, it } from "vitest";
import {
  requireAccess, validateThroughProviders, type CredentialProvider,
} from "./internals.ts";
import { createPasswordAuthenticator } from "../src/accounts/authenticate.ts";
import { createScryptPasswordHasher } from "../src/accounts/scrypt-password-hasher.ts";
import { manualClock, seededPlatform } from "../src/testing/seeded-platform.ts";

/** A provider that confirms one pair and records that it was asked. */
function pairProvider(id: string, login: string, password: string, asked: string[], extra: Partial<CredentialProvider> = {}): CredentialProvider {
  return {
    id,
    async validateCredential(l, p) {
      asked.push(id);
      return l === login && p === password ? { login } : undefined;
    },
    ...extra,
  };
}

describe("the provider chain", () => {
  it("tries providers in declared order and stops at the first that confirms", async () => {
    const asked: string[] = [];
    const providers = [pairProvider("a", "x", "1", asked), pairProvider("b", "y", "2", asked), pairProvider("c", "y", "2", asked)];
    const result = await validateThroughProviders(providers, "y", "2");
    expect(result?.provider.id).toBe("b");
    expect(asked).toEqual(["a", "b"]);
    asked.length = 0;
    expect(await validateThroughProviders(providers, "y", "wrong")).toBeUndefined();
    expect(asked).toEqual(["a", "b", "c"]);
  });

  it("goes on past a provider that fails, and reports it", async () => {
    const errors: string[] = [];
    const broken: CredentialProvider = { id: "ldap", validateCredential: async () => { throw new Error("directory down"); } };
    const result = await validateThroughProviders([broken, pairProvider("b", "y", "2", [])], "y", "2", (error, p) => errors.push(`${p.id}: ${(error as Error).message}`));
    expect(result?.provider.id).toBe("b");
    expect(errors).toEqual(["ldap: directory down"]);
  });

  it("the internal provider checks the platform's own accounts", async () => {
    const { platform } = await seededPlatform();
    const internal = platform.auth.internalProvider();
    expect(await internal.validateCredential("alice", "alice-pw")).toEqual({ login: "alice" });
    expect(await internal.validateCredential("alice", "nope")).toBeUndefined();
    expect(await internal.validateCredential("ghost", "alice-pw")).toBeUndefined();
  });
});

describe("password verification through the service", () => {
  it("needs a local account unless the provider describes one, which is then created", async () => {
    const { platform, store } = await seededPlatform();
    const directory: CredentialProvider = {
      id: "directory",
      validateCredential: async (login, password) =>
        password === "dir-pw" ? { login, ...(login === "newbie" ? { account: { roles: ["reader"], displayName: "New Bie" } } : {}) } : undefined,
    };
    const auth = platform.auth.service({ providers: [platform.auth.internalProvider(), directory], wait: async () => {} });
    expect((await auth.verifyPassword("alice", "alice-pw", "a"))?.account.login).toBe("alice");
    expect((await auth.verifyPassword("bob", "dir-pw", "a"))?.account.login).toBe("bob");
    expect(await auth.verifyPassword("stranger", "dir-pw", "a")).toBeUndefined();
    const newbie = await auth.verifyPassword("newbie", "dir-pw", "a");
    expect([newbie?.account.displayName, [...(newbie?.roles ?? [])]]).toEqual(["New Bie", ["reader"]]);
    expect((await store.accounts.byLogin("newbie"))?.passwordHash).toBeNull();
  });

  it("delays a client's failures past its free ones, without telling whether the login exists, and never a good password", async () => {
    const { platform } = await seededPlatform();
    const waited: number[] = [];
    const auth = platform.auth.service({ throttle: { clientFreeFailures: 1, baseDelayMs: 100 }, wait: async (ms) => void waited.push(ms),
    });
    for (const login of ["alice", "alice", "ghost", "ghost"]) expect(await auth.verifyPassword(login, "wrong", login === "alice" ? "10.0.0.1" : "10.0.0.2")).toBeUndefined();
    expect(waited).toEqual([100, 100]);
    expect((await auth.verifyPassword("alice", "alice-pw", "10.0.0.1"))?.account.login).toBe("alice");
    expect((await auth.verifyPassword("alice", "alice-pw", "10.0.0.3"))?.account.login).toBe("alice");
    expect(waited).toEqual([100, 100]);
  });
});

describe("a password the internal provider remembers", () => {
  it("is known without waiting only once verified, at the stamp of a request, and never past a change of password", async () => {
    const { platform, store } = await seededPlatform();
    const internal = platform.auth.internalProvider();
    const stamp = await store.changes.read();
    expect(internal.rememberedCredential?.("alice", "alice-pw", stamp)).toBeUndefined();
    expect(await internal.validateCredential("alice", "alice-pw", stamp)).toEqual({ login: "alice" });
    expect(internal.rememberedCredential?.("alice", "alice-pw", stamp)).toEqual({ login: "alice" });
    expect(internal.rememberedCredential?.("alice", "other-pw", stamp)).toBeUndefined();
    // Without the request's stamp it cannot know the account is unchanged without reading it: not known.
    expect(internal.rememberedCredential?.("alice", "alice-pw")).toBeUndefined();

    const alice = (await store.accounts.byLogin("alice"))!;
    const bob = (await store.accounts.byLogin("bob"))!;
    await store.transaction((tx) => tx.accounts.saveAccount({ ...alice, passwordHash: bob.passwordHash }));
    const changed = await store.changes.read();
    expect(internal.rememberedCredential?.("alice", "alice-pw", changed)).toBeUndefined();
    expect(await internal.validateCredential("alice", "alice-pw", changed)).toBeUndefined();
    expect(internal.rememberedCredential?.("alice", "alice-pw", changed)).toBeUndefined();
  });

  it("answers for the chain only when its provider comes first", async () => {
    const { platform, store } = await seededPlatform();
    const asked: string[] = [];
    const internal = platform.auth.internalProvider();
    const stamp = await store.changes.read();
    await internal.validateCredential("alice", "alice-pw", stamp);
    const directory = pairProvider("directory", "alice", "alice-pw", asked);
    const first = platform.auth.service({ providers: [internal, directory], wait: async () => {} });
    expect((await first.verifyPassword("alice", "alice-pw", "a", stamp))?.account.login).toBe("alice");
    expect(asked).toEqual([]);
    const second = platform.auth.service({ providers: [directory, internal], wait: async () => {} });
    expect((await second.verifyPassword("alice", "alice-pw", "a", stamp))?.account.login).toBe("alice");
    expect(asked).toEqual(["directory"]);
  });

  it("is refused all the same while its login is locked", async () => {
    const { platform, clock } = await seededPlatform();
    const auth = platform.auth.service({ throttle: { freeFailures: 0, baseLockMs: 1000 }, wait: async () => {} });
    expect(await auth.verifyPassword("alice", "alice-pw", "10.0.0.1")).toBeDefined();
    expect(await auth.verifyPassword("alice", "wrong", "10.0.0.1")).toBeUndefined();
    await expect(auth.verifyPassword("alice", "alice-pw", "10.0.0.1")).rejects.toMatchObject({ code: "AUTH0429" });
    clock.advance(1000);
    expect(await auth.verifyPassword("alice", "alice-pw", "10.0.0.1")).toBeDefined();
  });
});

describe("passwords verified at the same time", () => {
  /** The fixture's scrypt, counting its verifications and telling when one starts. */
  function countingScrypt() {
    const scrypt = createScryptPasswordHasher({ N: 1024 });
    let started: () => void = () => {};
    const counted = {
      runs: 0,
      /** Resolves once the next verification has started. */
      nextRun: () => new Promise<void>((resolve) => { started = resolve; }),
      hash: scrypt.hash,
      verify: (password: string, hash: string) => {
        counted.runs++;
        started();
        return scrypt.verify(password, hash);
      },
    };
    return counted;
  }

  it("run the KDF once for the same login and password, and apart for others", async () => {
    const { platform, store } = await seededPlatform();
    const hasher = countingScrypt();
    const passwords = createPasswordAuthenticator(store, platform.structures.definitions, hasher, manualClock());
    const burst = await Promise.all([
      ...Array.from({ length: 8 }, () => passwords.verify("alice", "alice-pw")),
      passwords.verify("alice", "wrong"),
      passwords.verify("alice", "wrong"),
      passwords.verify("nobody", "alice-pw"),
    ]);
    expect(burst.map((principal) => principal?.account.login)).toEqual([...Array(8).fill("alice"), undefined, undefined, undefined]);
    expect(hasher.runs).toBe(3);
    const stamp = await store.changes.read();
    expect(passwords.remembered("alice", "alice-pw", stamp)?.account.login).toBe("alice");
    expect(passwords.remembered("alice", "wrong", stamp)).toBeUndefined();
  });

  it("verify anew a password changed while the first verification ran", async () => {
    const { platform, store } = await seededPlatform();
    const hasher = countingScrypt();
    const passwords = createPasswordAuthenticator(store, platform.structures.definitions, hasher, manualClock());
    const running = hasher.nextRun();
    const before = passwords.verify("alice", "alice-pw");
    await running;
    const alice = (await store.accounts.byLogin("alice"))!;
    const bob = (await store.accounts.byLogin("bob"))!;
    await store.transaction((tx) => tx.accounts.saveAccount({ ...alice, passwordHash: bob.passwordHash }));
    const after = passwords.verify("alice", "alice-pw");
    expect((await before)?.account.login).toBe("alice");
    expect(await after).toBeUndefined();
    expect(hasher.runs).toBe(2);
  });
});

describe("the access guard", () => {
  it("lets a named role (or admin) through and refuses others with ROUTES0131", async () => {
    const seed = await seededPlatform();
    const [admin, bob, alice, carol] = [await seed.principal("admin"), await seed.principal("bob"), await seed.principal("alice"), await seed.principal("carol")];
    const requirement = { route: "admin::fullsearch", anyRole: ["fullsearch_administrator"] };
    expect(() => requireAccess(admin, requirement)).not.toThrow();
    expect(() => requireAccess(bob, requirement)).toThrow('Route "admin::fullsearch" access deny : need "OR:fullsearch_administrator" privilege');
    expect(() => requireAccess(alice, { route: "x", anyRole: ["editor"] })).not.toThrow();
    expect(() => requireAccess(carol, { route: "x", right: "PUT" })).toThrow(expect.objectContaining({ status: 403 }));
  });
});
