import { describe, expect, it } from "vitest";
import type { ImageStore } from "../ports/image-store.port.ts";

const bytes = (...values: number[]) => new Uint8Array(values);

/**
 * The ImageStore contract: every store (the memory fake, the file-system adapter) runs it.
 * `open` gives a fresh store whose Images directory holds `assets` (relative path to bytes).
 */
export function imageStoreContract(name: string, open: (assets: Record<string, Uint8Array>) => Promise<ImageStore>): void {
  describe(`ImageStore contract: ${name}`, () => {
    const assets = { "a.png": bytes(1, 2, 3), "sub/b.png": bytes(1, 2, 3), "sub/c.gif": bytes(9, 9) };

    it("reads an asset by relative path, with a content hash and its file name", async () => {
      const store = await open(assets);
      const a = await store.asset("a.png");
      const b = await store.asset("sub/b.png");
      const c = await store.asset("sub/c.gif");
      expect(a && [...a.bytes]).toEqual([1, 2, 3]);
      expect(b?.name).toBe("b.png");
      expect(a?.hash).toMatch(/^[0-9a-f]{16,}$/);
      expect(b?.hash).toBe(a?.hash);
      expect(c?.hash).not.toBe(a?.hash);
    });

    it("answers undefined for a missing asset", async () => {
      const store = await open(assets);
      expect(await store.asset("missing.png")).toBeUndefined();
      expect(await store.asset("sub/missing.png")).toBeUndefined();
    });

    it.each(["../a.png", "sub/../a.png", "sub/../../etc/passwd", "..", "sub\\..\\a.png"])("refuses the parent segment in %s", async (path) => {
      const store = await open(assets);
      await expect(store.asset(path)).rejects.toMatchObject({ code: "ROUTES0115" });
    });

    it("keeps variants by key", async () => {
      const store = await open(assets);
      expect(await store.variant("k1")).toBeUndefined();
      await store.saveVariant("k1", bytes(4, 5));
      await store.saveVariant("k1", bytes(4, 5));
      expect([...(await store.variant("k1")) ?? []]).toEqual([4, 5]);
      expect(await store.variant("k2")).toBeUndefined();
    });
  });
}
