import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ACCOUNT_ICON, DEFAULT_ICON, MIME_ICON_FILES, MIME_ICON_NAMES, readImageHeader } from "@lineage/core";
import { imageStoreContract } from "@lineage/core/testing";
import { createFsImageStore } from "../src/fs-image-store.ts";

const temp = mkdtempSync(join(tmpdir(), "lineage-image-store-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
let count = 0;

/** A fresh Images directory holding `assets`, and a cache beside it. */
function openStore(assets: Record<string, Uint8Array>) {
  const base = join(temp, String(count++));
  for (const [path, bytes] of Object.entries(assets)) {
    mkdirSync(dirname(join(base, "images", path)), { recursive: true });
    writeFileSync(join(base, "images", path), bytes);
  }
  return { base, store: createFsImageStore({ imagesDir: join(base, "images"), cacheDir: join(base, "cache") }) };
}

imageStoreContract("file system", async (assets) => openStore(assets).store);

describe("file-system ImageStore: symbolic links", () => {
  it("refuses a link that points outside the Images directory, follows one inside", async () => {
    const { base, store } = openStore({ "a.png": new Uint8Array([1]) });
    writeFileSync(join(base, "secret.png"), new Uint8Array([7]));
    symlinkSync(join(base, "secret.png"), join(base, "images", "escape.png"));
    symlinkSync(base, join(base, "images", "up"));
    symlinkSync(join(base, "images", "a.png"), join(base, "images", "alias.png"));
    await expect(store.asset("escape.png")).rejects.toMatchObject({ code: "ROUTES0115" });
    await expect(store.asset("up/secret.png")).rejects.toMatchObject({ code: "ROUTES0115" });
    expect([...(await store.asset("alias.png"))?.bytes ?? []]).toEqual([1]);
  });

  it("answers undefined for a directory and for an absent Images directory", async () => {
    const { store } = openStore({ "sub/a.png": new Uint8Array([1]) });
    expect(await store.asset("sub")).toBeUndefined();
    const none = createFsImageStore({ imagesDir: undefined, cacheDir: join(temp, "none-cache") });
    expect(await none.asset("a.png")).toBeUndefined();
  });
});

describe("file-system ImageStore: built-in assets", () => {
  it("serves a PNG icon for every MIME-type icon file values name, from the package when the Images directory has none", async () => {
    const store = createFsImageStore({ imagesDir: undefined, cacheDir: join(temp, "builtin-cache") });
    expect(MIME_ICON_NAMES.length).toBeGreaterThan(20);
    // Under mime/png/ for exact types, at the root for top-level types (mime-txt.png), as the original links them.
    expect(MIME_ICON_FILES).toEqual(expect.arrayContaining(["mime/png/mime-pdf.png", "mime-txt.png", "mime-image2.png"]));
    for (const path of [...MIME_ICON_FILES, DEFAULT_ICON, ACCOUNT_ICON]) {
      const icon = await store.asset(path);
      expect(icon && readImageHeader(icon.bytes), path).toMatchObject({ format: "png", width: 32, height: 32 });
    }
  });

  it("lets the Images directory replace a built-in asset, and serves none when told not to", async () => {
    const { store } = openStore({ "mime/png/mime-pdf.png": new Uint8Array([9]) });
    expect([...(await store.asset("mime/png/mime-pdf.png"))?.bytes ?? []]).toEqual([9]);
    expect((await store.asset("mime/png/mime-zip.png"))?.name).toBe("mime-zip.png");
    const bare = createFsImageStore({ imagesDir: undefined, builtinDir: null, cacheDir: join(temp, "bare-cache") });
    expect(await bare.asset("mime/png/mime-pdf.png")).toBeUndefined();
  });
});
