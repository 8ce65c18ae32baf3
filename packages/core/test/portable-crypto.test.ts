import { createHash, randomBytes as nodeRandomBytes, timingSafeEqual as nodeTimingSafeEqual } from "node:crypto";
import { md4 } from "hash-wasm";
import { describe, expect, it } from "vitest";
import { newSessionSecret } from "../src/auth/session.ts";
import { newTokenId, newTokenSecret, secretHash } from "../src/auth/access-token.ts";
import { elementEtag } from "../src/elements/etag.ts";
import { elementImportKey } from "../src/bundle/bundle-values.ts";
import { fromBase64, toBase64, toBase64Url, toHex } from "../src/crypto/encoding.ts";
import { randomBytes } from "../src/crypto/random-bytes.ts";
import { sha256, sha256Hex } from "../src/crypto/sha256.ts";
import { timingSafeEqual } from "../src/crypto/timing-safe-equal.ts";
import type { Principal } from "../src/accounts/principal.ts";

// The core's digests and encodings run without Node; every value they give must be the one Node's gave before.
const samples = ["", "a", "abc", "été ☃ 日本 \u0000 end", "x".repeat(1000), ...Array.from({ length: 20 }, (_, n) => nodeRandomBytes(n * 7).toString("latin1"))];

describe("the core's portable crypto", () => {
  it("digests SHA-256 as node:crypto does, from strings (UTF-8) and bytes", () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    for (const text of samples) {
      expect(sha256Hex(text)).toBe(createHash("sha256").update(text, "utf8").digest("hex"));
      const bytes = new TextEncoder().encode(text);
      expect(Buffer.from(sha256(bytes)).equals(createHash("sha256").update(bytes).digest())).toBe(true);
    }
  });

  it("encodes hex, base64 and base64url as Buffer does, and decodes base64 back", () => {
    for (let length = 0; length < 70; length++) {
      const bytes = nodeRandomBytes(length);
      expect(toHex(bytes)).toBe(bytes.toString("hex"));
      expect(toBase64(bytes)).toBe(bytes.toString("base64"));
      expect(toBase64Url(bytes)).toBe(bytes.toString("base64url"));
      expect(Buffer.from(fromBase64(bytes.toString("base64"))).equals(bytes)).toBe(true);
    }
    expect(() => fromBase64("not base64!")).toThrow();
  });

  it("draws random bytes of the length asked", () => {
    expect(randomBytes(32)).toHaveLength(32);
    expect(toHex(randomBytes(16))).not.toBe(toHex(randomBytes(16)));
  });

  it("compares bytes as node's timingSafeEqual does, refusing different lengths", () => {
    const a = nodeRandomBytes(32);
    const b = Buffer.from(a);
    expect(timingSafeEqual(a, b)).toBe(nodeTimingSafeEqual(a, b));
    b[31] = b[31]! ^ 1;
    expect(timingSafeEqual(a, b)).toBe(false);
    expect(timingSafeEqual(a, a.subarray(1))).toBe(false);
  });

  it("keeps the formats of secrets, token hashes, import keys and ETags", async () => {
    expect(newSessionSecret()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newTokenSecret()).toMatch(/^[0-9a-f]{40}$/);
    expect(newTokenId()).toMatch(/^[0-9a-f]{16}$/);
    expect(secretHash("s3cret")).toBe(createHash("sha256").update("s3cret", "utf8").digest("hex"));
    const entry = { structure: "NOTE", values: { title: "été", tags: ["a", "b"] }, owner: "admin" };
    const canonical = JSON.stringify({ owner: "admin", structure: "NOTE", values: { tags: ["a", "b"], title: "été" } });
    expect(elementImportKey(entry)).toBe(createHash("sha256").update(canonical).digest("hex"));

    const principal = { account: { id: 7 }, groups: new Set(["g1", "g2"]) } as unknown as Principal;
    const source = [12, "2024-01-02T03:04:05.000Z", "ved", 7, "g1,g2", "fr", "0.1.0"].join(" ");
    const before = `"${Buffer.from(await md4(source)).toString("base64")}"`;
    expect(await elementEtag(12, "2024-01-02T03:04:05.000Z", "ved", principal, "fr")).toBe(before);
  });
});
