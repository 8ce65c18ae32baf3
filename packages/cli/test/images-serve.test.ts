import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readImageHeader } from "@lineage/core";
import { startLineage, type RunningLineage } from "../src/start-lineage.ts";

// `lineage serve` on the demo bundle: the Images directory beside the bundle, the demo's images resized by the routes.

const root = resolve(import.meta.dirname, "..", "..", "..");
const demo = join(root, "examples/demo/bundle.json");
const auth = { authorization: `Basic ${Buffer.from("admin:admin").toString("base64")}` };
const dirs: string[] = [];
let running: RunningLineage;

beforeAll(async () => {
  const data = mkdtempSync(join(tmpdir(), "lineage-images-serve-"));
  dirs.push(data);
  running = await startLineage({ dataDir: data, bundles: [demo], port: 0 });
});
afterAll(async () => {
  await running?.close();
  dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

async function image(path: string) {
  const response = await fetch(`${running.url}${path}`, { headers: auth });
  return { status: response.status, header: readImageHeader(new Uint8Array(await response.arrayBuffer())) };
}

describe("lineage serve: the demo's images", () => {
  it("serves the Images directory beside the first bundle: the element icon resizes to 24x24", async () => {
    expect(running.imagesDir).toBe(join(root, "examples/demo/images"));
    const element = await (await fetch(`${running.url}/api/v2/smart-elements/ART_HELLO`, { headers: auth })).json() as { data: { document: { properties: { icon: string } } } };
    expect(element.data.document.properties.icon).toBe("/api/v2/images/assets/sizes/24x24c/article.png");
    expect(await image(element.data.document.properties.icon)).toEqual({ status: 200, header: { format: "png", width: 24, height: 24 } });
  });

  it("resizes and converts an image field of a demo element, and its array rows", async () => {
    expect(await image("/api/v2/smart-elements/ART_HELLO/images/ar_cover/-1/sizes/240.jpg")).toEqual({ status: 200, header: { format: "jpeg", width: 240, height: 150 } });
    expect((await image("/api/v2/smart-elements/ART_HELLO/images/ar_link_img/0/sizes/64x64c.png")).header).toMatchObject({ format: "png", width: 64, height: 64 });
  });

  it("caches variants under the data directory", async () => {
    const { readdirSync } = await import("node:fs");
    const cache = join(dirs[0] ?? "", "image-cache");
    expect(readdirSync(cache).length).toBeGreaterThan(0);
  });
});

describe("lineage serve with the sharp processor", () => {
  it("resizes with sharp when configured", async () => {
    const data = mkdtempSync(join(tmpdir(), "lineage-images-sharp-"));
    dirs.push(data);
    const sharpServer = await startLineage({ dataDir: data, bundles: [demo], port: 0, imageProcessor: "sharp" });
    try {
      const response = await fetch(`${sharpServer.url}/api/v2/smart-elements/ART_HELLO/images/ar_cover/-1/sizes/100x100c.gif`, { headers: auth });
      expect(readImageHeader(new Uint8Array(await response.arrayBuffer()))).toEqual({ format: "gif", width: 100, height: 100 });
    } finally {
      await sharpServer.close();
    }
  });
});
