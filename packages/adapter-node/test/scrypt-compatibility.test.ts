import { createScryptPasswordHasher, DEFAULT_SCRYPT_COST, parseScryptHash, type PasswordHasher } from "@lineage/core";
import { describe, expect, it } from "vitest";
import { createNodeScryptPasswordHasher } from "../src/index.ts";

// Small costs keep the suite fast; one case at the default cost shows the default format is shared too.
const cheap = { N: 1024, r: 8, p: 1 };
const hashers: Record<string, PasswordHasher> = {
  native: createNodeScryptPasswordHasher(cheap),
  portable: createScryptPasswordHasher(cheap),
};

describe("scrypt password hashers: Node's native one and the core's portable one", () => {
  for (const [maker, made] of Object.entries(hashers)) {
    for (const [checker, checks] of Object.entries(hashers)) {
      it(`a hash made by the ${maker} hasher verifies with the ${checker} one`, async () => {
        const stored = await made.hash("correct horse battery staple");
        await expect(checks.verify("correct horse battery staple", stored)).resolves.toBe(true);
        await expect(checks.verify("correct horse battery stapler", stored)).resolves.toBe(false);
      });
    }
  }

  it("derive the same key from the same salt, password and cost (non-ASCII password included)", async () => {
    const password = "pâssw0rd-ü-日本";
    const stored = await hashers.native!.hash(password);
    const otherCost = { N: 2048, r: 4, p: 2 };
    const storedOther = await createNodeScryptPasswordHasher(otherCost).hash(password);
    await expect(createScryptPasswordHasher().verify(password, stored)).resolves.toBe(true);
    await expect(createScryptPasswordHasher().verify(password, storedOther)).resolves.toBe(true);
    expect(parseScryptHash(storedOther)).toMatchObject(otherCost);
  });

  it("share the default cost and format", async () => {
    const stored = await createNodeScryptPasswordHasher().hash("secret");
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(parseScryptHash(stored)).toMatchObject(DEFAULT_SCRYPT_COST);
    await expect(createScryptPasswordHasher().verify("secret", stored)).resolves.toBe(true);
    const portable = await createScryptPasswordHasher().hash("secret");
    await expect(createNodeScryptPasswordHasher().verify("secret", portable)).resolves.toBe(true);
  });

  it("refuse, without throwing, what is not a stored scrypt hash", async () => {
    for (const hasher of Object.values(hashers)) {
      for (const stored of ["", "scrypt$1024$8$1$", "bcrypt$1024$8$1$c2FsdA==$a2V5", "scrypt$1024$8$1$c2FsdA==$=", "scrypt$1024$8$1$!!$a2V5"]) {
        await expect(hasher.verify("x", stored)).resolves.toBe(false);
      }
    }
  });
});
