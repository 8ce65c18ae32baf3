import { describe, expect, it } from "vitest";
import { overwriteWarning, type ImportReport } from "../src/bundle/import-report.ts";
import { systemPrincipal } from "../src/bundle/system-principal.ts";
import { isLineageError } from "../src/errors/lineage-error.ts";
import { parseFileValue } from "../src/values/file-value.ts";
import { baseBundle, bytes, FILES, folder, snapshot, testPlatform, vaultFiles, type RawBundle } from "../src/testing/bundle-helpers.ts";

const counts = (created: number, updated: number, unchanged: number) => ({ created, updated, unchanged });
const elementCounts = (created: number, updated: number, unchanged: number, overwritten = 0) => ({ ...counts(created, updated, unchanged), overwritten });

function load(bundle: RawBundle = baseBundle(), files: Record<string, Uint8Array> = FILES) {
  const platform = testPlatform();
  return { platform, run: (next: RawBundle = bundle, readFiles = files) => platform.bundles.import(next, { readFile: folder(readFiles) }) };
}

const vaultIdOf = (value: unknown) => parseFileValue(String(value))?.vaultId;

describe("importBundle", () => {
  it("saves every section and reports what it created", async () => {
    const { platform, run } = load();
    const report = await run();
    expect(report).toEqual<ImportReport>({
      roles: counts(2, 0, 0), groups: counts(1, 0, 0), users: counts(3, 0, 0), enumerates: counts(1, 0, 0),
      profiles: counts(1, 0, 0), fieldAccesses: counts(0, 0, 0), lifecycles: counts(1, 0, 0), structures: counts(2, 0, 0), elements: elementCounts(3, 0, 0),
      searchDomains: counts(1, 0, 0), dashboards: counts(1, 0, 0),
    });
    const { store } = platform;
    expect(await store.accounts.roles()).toEqual([{ id: "editor", label: { en: "Editors", fr: "Rédacteurs" } }, { id: "reader" }]);
    expect(await store.accounts.groups()).toEqual([{ id: "newsroom", roles: ["editor"] }]);
    expect(await store.accounts.byLogin("alice")).toMatchObject({ displayName: "Alice", groups: ["newsroom"], locale: "fr", rights: ["GET", "PUT", "POST", "DELETE"] });
    expect(await store.accounts.byLogin("bob")).toMatchObject({ displayName: "bob", roles: ["reader"], locale: "en", rights: ["GET"] });
    expect(await platform.accounts.authenticate("alice", "alice-pw")).toBeDefined();
    expect(await platform.accounts.authenticate("alice", "wrong")).toBeUndefined();
    expect((await store.catalog.enumerate("CATEGORIES"))?.items[1]).toEqual({ key: "ai", label: "Artificial intelligence", parentKey: "tech" });
    expect((await store.catalog.profile("PRF_NOTE"))?.grants.view).toEqual(["role:editor", "user:bob"]);
    expect((await store.catalog.lifecycle("WFL_NOTE"))?.transitions[0]?.hooks).toEqual({ m1: "beforeFinish" });
    expect(await store.catalog.structure("NOTE")).toMatchObject({ name: "NOTE", icon: "note.png", lifecycle: "WFL_NOTE", titleField: "no_title" });
  });

  it("creates elements as the system principal, owned as the bundle says, in the lifecycle's first state", async () => {
    const { platform, run } = load();
    await run();
    const { store } = platform;
    const ann = await store.elements.latestByName("P_ANN");
    const note = await store.elements.latestByName("N_ONE");
    expect(ann).toMatchObject({ title: "Ann", revision: 0, state: null, owner: (await store.accounts.byLogin("admin"))?.id, importKey: null });
    expect(note).toMatchObject({ title: "First note", state: "draft", owner: (await store.accounts.byLogin("alice"))?.id, status: "alive" });
    expect(note?.id).toBe(note?.initid);
    const history = await store.elements.history(note?.initid ?? 0);
    expect(history).toEqual([expect.objectContaining({ code: "CREATE", accountId: 0, accountName: "System" })]);
    expect(note?.values).toMatchObject({
      no_title: "First note", no_body: "<p>Hello</p>", no_count: 3, no_score: 2.5, no_day: "2024-02-29",
      no_at: "2024-03-01T10:00:00", no_category: "ai", no_tags: ["tech", "ai"], no_ref: "REF-1",
    });
    expect(note?.values.no_secret).toBeUndefined();
  });

  it("gives unnamed elements an import key and the admin account as default owner", async () => {
    const { platform, run } = load();
    await run();
    const unnamed = (await platform.store.elements.list({ status: "alive", orderBy: [], limit: null, offset: 0 })).find((e) => e.name === null);
    expect(unnamed?.importKey).toMatch(/^[0-9a-f]{64}$/);
    expect(unnamed?.owner).toBe((await platform.store.accounts.byLogin("admin"))?.id);
  });

  it("resolves docid values naming elements of the bundle to their initid", async () => {
    const { platform, run } = load();
    await run();
    const ann = await platform.store.elements.latestByName("P_ANN");
    const note = await platform.store.elements.latestByName("N_ONE");
    expect(note?.values.no_author).toBe(ann?.initid);
    expect(note?.values.no_readers).toEqual([ann?.initid]);
  });

  it("creates an element after those it names, wherever they are in the bundle", async () => {
    const bundle: RawBundle = baseBundle();
    bundle.elements.unshift({ structure: "NOTE", name: "N_FIRST", values: { no_title: "Before Zed", no_author: "P_ZED" } });
    bundle.elements.push({ structure: "PERSON", name: "P_ZED", values: { pe_name: "Zed", pe_friend: "P_ANN" } });
    const { platform, run } = load(bundle);
    await run();
    const zed = await platform.store.elements.latestByName("P_ZED");
    expect((await platform.store.elements.latestByName("N_FIRST"))?.values.no_author).toBe(zed?.initid);
    expect(zed?.values.pe_friend).toBe((await platform.store.elements.latestByName("P_ANN"))?.initid);
  });

  it("resolves docid values that make a cycle, and a re-import finds nothing to change", async () => {
    const bundle: RawBundle = baseBundle();
    bundle.elements.push(
      { structure: "PERSON", name: "P_X", values: { pe_name: "X", pe_friend: "P_Y" } },
      { structure: "PERSON", name: "P_Y", values: { pe_name: "Y", pe_friend: "P_X" } },
      { structure: "PERSON", name: "P_SELF", values: { pe_name: "Self", pe_friend: "P_SELF" } },
    );
    const { platform, run } = load(bundle);
    expect((await run()).elements).toEqual(elementCounts(6, 0, 0));
    const x = await platform.store.elements.latestByName("P_X");
    const y = await platform.store.elements.latestByName("P_Y");
    const self = await platform.store.elements.latestByName("P_SELF");
    expect(x?.values.pe_friend).toBe(y?.initid);
    expect(y?.values.pe_friend).toBe(x?.initid);
    expect(self?.values.pe_friend).toBe(self?.initid);
    const before = await snapshot(platform.store);
    expect((await run()).elements).toEqual(elementCounts(0, 0, 6));
    expect(await snapshot(platform.store)).toEqual(before);
  });

  it("turns array rows into one list per column", async () => {
    const { platform, run } = load();
    await run();
    const values = (await platform.store.elements.latestByName("N_ONE"))?.values ?? {};
    expect(values.no_link_url).toEqual(["https://example.org/a", "https://example.org/b"]);
    expect(values.no_link_tags).toEqual([["tech"], []]);
    const images = values.no_link_img as unknown[];
    expect(images).toHaveLength(2);
    expect(images[0]).toMatch(/^image\/png\|\d+\|a\.png$/);
    expect(images[1]).toBeNull();
    expect(values.no_links).toBeUndefined();
  });

  it("stores files in the vault, once per content and name", async () => {
    const { platform, run } = load();
    await run();
    const { store } = platform;
    const note = (await store.elements.latestByName("N_ONE"))?.values ?? {};
    const unnamed = (await store.elements.list({ status: "alive", orderBy: [], limit: null, offset: 0 })).find((e) => e.name === null);
    expect(note.no_picture).toMatch(/^image\/png\|\d+\|cover\.png$/);
    expect(unnamed?.values.no_picture).toBe(note.no_picture);
    const [notes, report] = note.no_files as string[];
    expect(notes).toMatch(/^text\/plain\|\d+\|notes\.txt$/);
    expect(report).toMatch(/^application\/pdf\|\d+\|report\.pdf$/);
    expect((await vaultFiles(store)).map((f) => f?.name).sort()).toEqual(["a.png", "cover.png", "notes.txt", "report.pdf"]);
    expect(await store.vault.read(vaultIdOf(note.no_picture) ?? 0)).toEqual(FILES["files/cover.png"]);
  });

  it("changes nothing when the same bundle is imported again", async () => {
    const { platform, run } = load();
    await run();
    const hashes = platform.hasher.hashes;
    const before = await snapshot(platform.store);
    const report = await run();
    expect(report).toEqual<ImportReport>({
      roles: counts(0, 0, 2), groups: counts(0, 0, 1), users: counts(0, 0, 3), enumerates: counts(0, 0, 1),
      profiles: counts(0, 0, 1), fieldAccesses: counts(0, 0, 0), lifecycles: counts(0, 0, 1), structures: counts(0, 0, 2), elements: elementCounts(0, 0, 3),
      searchDomains: counts(0, 0, 1), dashboards: counts(0, 0, 1),
    });
    expect(await snapshot(platform.store)).toEqual(before);
    expect(platform.hasher.hashes).toBe(hashes);
  });

  it("updates a named element in place when a value changed", async () => {
    const { platform, run } = load();
    await run();
    const { store } = platform;
    const before = await store.elements.latestByName("N_ONE");
    const vaultBefore = (await vaultFiles(store)).length;
    const bundle: RawBundle = baseBundle();
    bundle.elements[1].values.no_count = 4;
    bundle.elements[1].values.no_links[1].no_link_url = "https://example.org/c";
    const report = await run(bundle);
    expect(report.elements).toEqual(elementCounts(0, 1, 2));
    expect(report.structures).toEqual(counts(0, 0, 2));
    const after = await store.elements.latestByName("N_ONE");
    expect(after).toMatchObject({ id: before?.id, initid: before?.initid, revision: 0, fixed: false });
    expect(after?.values.no_count).toBe(4);
    expect(after?.values.no_link_url).toEqual(["https://example.org/a", "https://example.org/c"]);
    expect(after?.values.no_picture).toBe(before?.values.no_picture);
    expect(after?.modifiedAt).not.toBe(before?.modifiedAt);
    expect(after?.createdAt).toBe(before?.createdAt);
    expect(await store.elements.revisions(before?.initid ?? 0)).toHaveLength(1);
    expect((await store.elements.history(before?.initid ?? 0)).map((h) => [h.code, h.comment])).toEqual([
      ["MODIFY", "Updated by bundle import"],
      ["CREATE", "Created"],
    ]);
    expect(await vaultFiles(store)).toHaveLength(vaultBefore);
  });

  it("counts the updates that overwrite a change made through the API since the last import", async () => {
    const { platform, run } = load();
    await run();
    const alice = (await platform.accounts.principal("alice"))!;
    await platform.elements.update(alice, "N_ONE", { values: { no_count: 99 } });
    const report = await run();
    expect(report.elements).toEqual(elementCounts(0, 1, 2, 1));
    expect(overwriteWarning("demo.json", report)).toBe("demo.json: 1 element changed since the last import was overwritten with the bundle's values");
    expect((await platform.store.elements.latestByName("N_ONE"))?.values.no_count).toBe(3);
    // The import's own update is no change "since the last import".
    const again = baseBundle();
    again.elements[1].values.no_count = 5;
    expect((await run(again)).elements).toEqual(elementCounts(0, 1, 2, 0));
  });

  it("keeps an account disabled by an administrator disabled when its bundle is imported again", async () => {
    const { platform, run } = load();
    await run();
    await platform.accounts.setDisabled("bob", true);
    expect((await run()).users).toEqual(counts(0, 0, 3));
    expect(await platform.store.accounts.byLogin("bob")).toMatchObject({ disabled: true });
  });

  it("updates an element whose file changed, with a new vault file", async () => {
    const { platform, run } = load();
    await run();
    const { store } = platform;
    const before = await store.elements.latestByName("N_ONE");
    const files = { ...FILES, "files/cover.png": bytes("png: a new cover") };
    const report = await run(baseBundle(), files);
    expect(report.elements).toEqual(elementCounts(0, 1, 2));
    const after = await store.elements.latestByName("N_ONE");
    expect(vaultIdOf(after?.values.no_picture)).not.toBe(vaultIdOf(before?.values.no_picture));
    expect(await store.vault.read(vaultIdOf(after?.values.no_picture) ?? 0)).toEqual(files["files/cover.png"]);
  });

  it("creates a new unnamed element when its content changed (unnamed elements are found by content)", async () => {
    const { platform, run } = load();
    await run();
    const bundle: RawBundle = baseBundle();
    bundle.elements[2].values.no_title = "Another unnamed note";
    expect((await run(bundle)).elements).toEqual(elementCounts(1, 0, 2));
    expect(await platform.store.elements.list({ status: "alive", orderBy: [], limit: null, offset: 0 })).toHaveLength(4);
  });

  it("updates catalog entries and accounts that changed, keeping ids", async () => {
    const { platform, run } = load();
    await run();
    const { store } = platform;
    const noteId = (await store.catalog.structure("NOTE"))?.id;
    const aliceId = (await store.accounts.byLogin("alice"))?.id;
    const aliceHash = (await store.accounts.byLogin("alice"))?.passwordHash;
    const bundle: RawBundle = baseBundle();
    bundle.accounts.roles[1].label = "Readers";
    bundle.accounts.users[1].password = "a-new-password";
    bundle.accounts.users[2].locale = "de";
    bundle.enumerates.CATEGORIES.push({ key: "space", label: "Space", parentKey: "science" });
    bundle.structures[1].fields.push({ id: "no_extra", type: "longtext" });
    const hashes = platform.hasher.hashes;
    const report = await run(bundle);
    expect(report).toMatchObject({
      roles: counts(0, 1, 1), users: counts(0, 2, 1), enumerates: counts(0, 1, 0), structures: counts(0, 1, 1), elements: elementCounts(0, 0, 3),
    });
    expect(platform.hasher.hashes).toBe(hashes + 1);
    expect((await store.catalog.structure("NOTE"))?.id).toBe(noteId);
    expect((await store.accounts.byLogin("alice"))?.id).toBe(aliceId);
    expect((await store.accounts.byLogin("alice"))?.passwordHash).not.toBe(aliceHash);
    expect(await platform.accounts.authenticate("alice", "a-new-password")).toBeDefined();
    expect((await store.accounts.byLogin("bob"))?.locale).toBe("de");
  });

  it("keeps the password of a user the bundle gives none", async () => {
    const { platform, run } = load();
    await run();
    const bundle: RawBundle = baseBundle();
    delete bundle.accounts.users[1].password;
    expect((await run(bundle)).users).toEqual(counts(0, 0, 3));
    expect(await platform.accounts.authenticate("alice", "alice-pw")).toBeDefined();
  });

  it("leaves an element in the trash where it is", async () => {
    const { platform, run } = load();
    await run();
    await platform.elements.delete(systemPrincipal(), "N_ONE");
    const before = await snapshot(platform.store);
    expect((await run()).elements).toEqual(elementCounts(0, 0, 3));
    expect(await snapshot(platform.store)).toEqual(before);
  });

  it("lets a later bundle name elements of an earlier one, by logical name or id", async () => {
    const { platform, run } = load();
    await run();
    const ann = await platform.store.elements.latestByName("P_ANN");
    const report = await run({
      elements: [
        { structure: "PERSON", name: "P_BEA", values: { pe_name: "Bea", pe_friend: "P_ANN" } },
        { structure: "PERSON", name: "P_CY", values: { pe_name: "Cy", pe_friend: ann?.id } },
      ],
    });
    expect(report.elements).toEqual(elementCounts(2, 0, 0));
    expect((await platform.store.elements.latestByName("P_BEA"))?.values.pe_friend).toBe(ann?.initid);
    expect((await platform.store.elements.latestByName("P_CY"))?.values.pe_friend).toBe(ann?.initid);
  });

  it("rolls everything back when a write fails, and names the element", async () => {
    const bundle: RawBundle = baseBundle();
    // Two elements that need each other first: neither can be created before the other.
    bundle.structures.push({ name: "PAIR", fields: [{ id: "pa_other", type: "docid", needed: true }] });
    bundle.elements.push(
      { structure: "PAIR", name: "PAIR_A", values: { pa_other: "PAIR_B" } },
      { structure: "PAIR", name: "PAIR_B", values: { pa_other: "PAIR_A" } },
    );
    const { platform, run } = load(bundle);
    const error = await run().catch((e: unknown) => e);
    expect(isLineageError(error) && error.code).toBe("BUNDLE0001");
    const problems = isLineageError(error) ? (error.data as { problems: unknown[] }).problems : [];
    expect(problems).toEqual([{ path: "$.elements[4]", message: 'Smart field "pa_other" is needed' }]);
    expect(await platform.store.accounts.roles()).toEqual([]);
    // The system structures alone, as in every store.
    expect((await platform.store.catalog.structures()).map((s) => s.name)).toEqual(["DIR", "SEARCH", "REPORT"]);
    expect(await vaultFiles(platform.store)).toEqual([]);
    expect(await platform.store.elements.latestByName("P_ANN")).toBeUndefined();
  });
});

describe("systemPrincipal", () => {
  it("is the admin account 0, login system", () => {
    const principal = systemPrincipal();
    expect(principal.account).toMatchObject({ id: 0, login: "system", roles: ["admin"], passwordHash: null });
    expect(principal.isAdmin).toBe(true);
    expect([...principal.roles]).toEqual(["admin"]);
  });
});
