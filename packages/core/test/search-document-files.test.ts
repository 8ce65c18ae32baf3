import { describe, expect, it } from "vitest";
import type { DocumentTextExtractor } from "./internals.ts";
import type { RawBundle } from "../src/testing/bundle-helpers.ts";
import { bytes } from "../src/testing/bundle-helpers.ts";
import { searchBundle, searchWorld } from "../src/testing/search-world.ts";

// Issue 19, item 12, in the core: a domain that indexes files hands the documents that are not
// text to the platform's extractor; one it refuses is marked K and never stops the index.

/** Reads "PDFs" whose bytes are their text, and refuses those saying "broken". */
const fakeDocuments: DocumentTextExtractor = {
  handles: (file) => file.mime === "application/pdf" || file.name.endsWith(".pdf"),
  extract: async (_file, content) => {
    const text = new TextDecoder().decode(content);
    if (text.includes("broken")) throw new Error("unreadable");
    return text;
  },
};

function withDocuments(): RawBundle {
  const bundle = searchBundle();
  bundle.elements.push(
    { structure: "NEWS", name: "N_PDF", values: { nw_title: "Scanned", nw_file: { file: "files/scan.pdf" } } },
    { structure: "NEWS", name: "N_BROKEN", values: { nw_title: "Broken scan", nw_file: { file: "files/broken.pdf" } } },
  );
  return bundle;
}

describe("documents attached to indexed files", () => {
  it("indexes the text the extractor reads, marks the files it refuses K, and indexes their elements all the same", async () => {
    const files = { "files/scan.pdf": bytes("The glacier retreats"), "files/broken.pdf": bytes("broken bytes") };
    const { platform, as } = await searchWorld({ searchDocuments: fakeDocuments }, withDocuments(), files);
    const admin = await as("admin");
    const search = async (q: string) => (await platform.fullsearch.search(admin, "news", { q })).documents.map((d) => d.properties?.title);
    expect(await search("glacier")).toEqual(["Scanned"]);
    expect(await search("broken")).toEqual(["Broken scan"]);
    const stats = (await platform.fullsearch.describeDomains(admin)).config.find((domain) => domain.name === "news");
    // D: report.md and scan.pdf; K: photo.png (no text) and broken.pdf.
    expect(stats?.database.files).toEqual([
      { status: "D", count: 2, label: "Succeed" },
      { status: "K", count: 2, label: "Failing" },
      { status: "W", count: 0, label: "Waiting" },
    ]);
  });

  it("leaves documents unread without an extractor, as before", async () => {
    const files = { "files/scan.pdf": bytes("The glacier retreats"), "files/broken.pdf": bytes("broken bytes") };
    const { platform, as } = await searchWorld({}, withDocuments(), files);
    expect((await platform.fullsearch.search(await as("admin"), "news", { q: "glacier" })).documents).toEqual([]);
  });
});
