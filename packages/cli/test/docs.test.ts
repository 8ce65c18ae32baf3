import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createHttpApp } from "@lineage/adapter-http";
import { createJimpImages } from "@lineage/adapter-images";
import { createPlatform, ERROR_CODES } from "@lineage/core";
import { createMemoryDashboardServer, createMemoryStore } from "@lineage/core/testing";
import { ROOT } from "./serve-process.ts";

/* The README and docs/ are read by people who have this repository only: they must stand on their own. */

const DOCS = join(ROOT, "docs");
const pages = [join(ROOT, "README.md"), ...readdirSync(DOCS).filter((name) => name.endsWith(".md")).map((name) => join(DOCS, name))];
const read = (path: string) => readFileSync(path, "utf8");

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");
const anchorsOf = (path: string) => new Set([...read(path).matchAll(/^#{1,6} (.+)$/gm)].map((match) => slug(match[1]!)));

describe("the README and docs/", () => {
  it.each(pages.map((path) => [relative(ROOT, path), path]))("%s names no file outside the repository", (_name, path) => {
    const text = read(path);
    for (const outside of [/\.\.\/shared/, /shared\/spec/, /api-v2\.md/, /\bbundle\.md\b/, /original-notes/, /\bissue \d+/i, /\bthe spec\b|\bspec's\b/i]) {
      expect(text).not.toMatch(outside);
    }
  });

  it.each(pages.map((path) => [relative(ROOT, path), path]))("%s links only to files of the repository, and to headings that exist", (_name, path) => {
    for (const [, target] of read(path).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [file = "", anchor] = target!.split("#");
      const resolved = file === "" ? path : resolve(dirname(path), file);
      expect(relative(ROOT, resolved).startsWith(".."), `${target} leaves the repository`).toBe(false);
      expect(existsSync(resolved), `${target} does not exist`).toBe(true);
      if (anchor && resolved.endsWith(".md")) expect(anchorsOf(resolved), `${target}: no such heading`).toContain(anchor);
    }
  });

  it("the README's package table lists every package and example", () => {
    const readme = read(join(ROOT, "README.md"));
    for (const folder of ["packages", "examples"]) {
      for (const name of readdirSync(join(ROOT, folder))) {
        const manifest = join(ROOT, folder, name, "package.json");
        expect(readme).toContain(`| \`${folder}/${name}\` |`);
        if (existsSync(manifest)) expect(readme).toContain(`\`${(JSON.parse(read(manifest)) as { name: string }).name}\``);
      }
    }
  });

  it("docs/README.md, the index, links every page of docs/", () => {
    const index = read(join(DOCS, "README.md"));
    for (const name of readdirSync(DOCS).filter((file) => file.endsWith(".md") && file !== "README.md")) expect(index).toContain(`](${name}`);
  });
});

describe("docs/api.md", () => {
  const api = read(join(DOCS, "api.md"));

  it("lists every route the server describes, and no other", async () => {
    const platform = createPlatform({ store: createMemoryStore(), dashboards: createMemoryDashboardServer() });
    await platform.accounts.add({ login: "reader", password: "pw" });
    // Every optional service, as `lineage serve` gives them, so that every route is served.
    const dir = mkdtempSync(join(tmpdir(), "lineage-docs-"));
    const images = createJimpImages({ imagesDir: dir, cacheDir: join(dir, "cache"), workers: 1 });
    const app = createHttpApp({ platform, images });
    const answer = await app.request("/api/v2/openapi.json", { headers: { authorization: `Basic ${btoa("reader:pw")}` } });
    await images.close();
    rmSync(dir, { recursive: true });
    const document = (await answer.json()) as { paths: Record<string, Record<string, unknown>> };
    // The copies of a structure's collection routes (`/smart-structures/DIR/smart-elements/{docid}`) are the `{family}` routes.
    const structureCopy = /^\/api\/v2\/smart-structures\/[^{/]+\/smart-elements/;
    const served = Object.entries(document.paths).filter(([path]) => !structureCopy.test(path)).flatMap(([path, item]) =>
      Object.keys(item).filter((method) => /^(get|put|post|delete|patch)$/.test(method)).map((method) => `| ${method.toUpperCase()} | \`${path}\` |`));
    const documented = [...api.matchAll(/^\| (GET|PUT|POST|DELETE|PATCH) \| `([^`]+)` \|/gm)].map((match) => `| ${match[1]} | \`${match[2]}\` |`);
    expect(served.length).toBeGreaterThan(50);
    expect(documented.sort()).toEqual(served.sort());
  });

  it("lists every error code with its status, and no other", () => {
    const documented = [...api.matchAll(/^\| ([A-Z]+\d{4}) \| (\d{3}) \|/gm)].map((match) => match[1]);
    expect(documented).toEqual([...ERROR_CODES]);
  });
});
