import { describe, expect, it } from "vitest";
import { checkBundle } from "../src/bundle/bundle-problems.ts";
import { LineageError } from "../src/errors/lineage-error.ts";
import { createMemoryStore } from "../src/testing/index.ts";
import { seededPlatform } from "../src/testing/seeded-platform.ts";

/*
 * Values that name elements or vault files, in every form the value codec and the renderer read:
 * what the request scope loads beforehand must be what they look up (else "was not loaded", a 500).
 */

describe("values naming elements and files", () => {
  it("renders a stored docid value that names no element (text, zero, fraction) as one the reader may not view: nothing tells them apart", async () => {
    const { platform, store, hello, principal } = await seededPlatform();
    const admin = await principal("admin");
    for (const value of ["abc", 0, 1.5, "99999999999999999999"]) {
      await store.transaction(async (tx) => tx.elements.save({ ...hello, values: { ...hello.values, ar_author: value } }));
      const reading = await platform.elements.read(admin, "ART_HELLO", { fields: "document.attributes.ar_author" });
      expect(reading.data.document.attributes?.ar_author).toMatchObject({ value, displayValue: "Information not accessible", initid: null, url: null, icon: null });
    }
  });

  it("refuses a docid of many digits with VALUE0001 naming the field", async () => {
    const { platform, principal } = await seededPlatform();
    const error = await platform.elements.update(await principal("admin"), "ART_HELLO", { values: { ar_author: "12345678901234567890" } })
      .then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(LineageError);
    expect((error as LineageError).code).toBe("VALUE0001");
    expect((error as LineageError).message).toMatch(/ar_author/);
  });

  it("checks a bundle whose file value is in the stored form (mime|id|name) of an existing vault file", async () => {
    const store = createMemoryStore();
    const file = await store.vault.store(new Uint8Array([1, 2, 3]), { name: "a.txt", mime: "text/plain" });
    const bundle = {
      structures: [{ name: "DOC", fields: [{ id: "d_file", type: "file" }, { id: "d_link", type: "docid" }] }],
      elements: [
        { structure: "DOC", name: "DOC_ONE", values: { d_file: `text/plain|${file.id}|a.txt` } },
        { structure: "DOC", name: "DOC_TWO", values: { d_file: `text/plain|${file.id + 1000}|gone.txt`, d_link: "12345678901234567890" } },
      ],
    };
    const { problems } = await checkBundle(bundle, { store, readFile: () => undefined });
    expect(problems.map((p) => p.path)).toEqual(["$.elements[1].values.d_file", "$.elements[1].values.d_link"]);
  });
});
