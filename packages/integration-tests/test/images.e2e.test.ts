import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlatform, createScryptPasswordHasher, formatFileValue, readImageHeader, type Platform, type Store } from "@lineage/core";
import { createJimpImages, createJimpProcessor } from "@lineage/adapter-images";
import { bandedImage, noisyPng } from "@lineage/adapter-images/testing";
import { createHttpApp, startServer } from "@lineage/adapter-http";
import { startLiveServer, withTwin, type LiveServer } from "../src/live-server.ts";
import { expectDocumentedAnswer } from "../src/openapi-answers.ts";

// The Images routes (api-v2.md, Images; original-notes.md 2.10) over a real server, real files and jimp workers.

const temp = mkdtempSync(join(tmpdir(), "lineage-images-e2e-"));
const imagesDir = join(temp, "images");
const processor = createJimpProcessor({ workers: 1 });
const images = createJimpImages({ imagesDir, cacheDir: join(temp, "cache"), processor, limits: { maxPixels: 200_000, maxInputBytes: 150_000 } });

const upload = (name: string, mime: string, content: Uint8Array) => ({ kind: "upload" as const, name, mime, content });

async function seed(store: Store) {
  const hasher = createScryptPasswordHasher({ N: 1024 });
  const platform: Platform = createPlatform({ store, hasher });
  const photo = await bandedImage(400, 300, "jpeg");
  const square = await bandedImage(90, 90, "png");
  const icon = await store.vault.store(await bandedImage(48, 48, "png"), { name: "badge.png", mime: "image/png" });
  await store.transaction(async (tx) => {
    await tx.accounts.saveRole({ id: "viewer" });
    await tx.catalog.saveProfile({ name: "PRF_PHOTO", grants: { view: ["role:viewer"] } });
    await tx.catalog.saveStructure({
      name: "PHOTO", title: "Photo", icon: "icon.png", profile: "PRF_PHOTO",
      fields: [
        { id: "ph_title", type: "text" },
        { id: "ph_image", type: "image" },
        { id: "ph_gallery", type: "image", multiple: true },
        { id: "ph_rows", type: "array", fields: [{ id: "ph_row_img", type: "image" }] },
        { id: "ph_hidden", type: "image", visibility: "I" },
        { id: "ph_doc", type: "file" },
        { id: "ph_words", type: "int" },
      ],
    });
    await tx.catalog.saveStructure({ name: "BADGE", title: "Badge", icon: formatFileValue({ mime: "image/png", vaultId: icon.id, name: "badge.png" }), fields: [{ id: "bd_title", type: "text" }] });
  });
  const admin = await platform.accounts.add({ login: "admin", password: "admin-pw", roles: ["admin"] });
  await platform.accounts.add({ login: "vera", password: "vera-pw", roles: ["viewer"] });
  await platform.accounts.add({ login: "sam", password: "sam-pw" });
  const system = await platform.accounts.principalOf(admin);
  const element = await platform.elements.create(system, {
    structure: "PHOTO", name: "PH_ONE",
    values: {
      ph_title: "One", ph_image: upload("photo.jpg", "image/jpeg", photo),
      ph_gallery: [upload("a.png", "image/png", square), upload("b.jpg", "image/jpeg", photo)],
      ph_row_img: [upload("row.png", "image/png", square)],
      ph_hidden: upload("hidden.png", "image/png", square),
      ph_doc: upload("notes.txt", "text/plain", new TextEncoder().encode("not an image")),
      ph_words: 3,
    },
  });
  const badge = await platform.elements.create(system, { structure: "BADGE", name: "BD_ONE", values: { bd_title: "Badge" } });
  const fileOf = (field: string) => {
    const value = element.values[field];
    return Number(/\|(\d+)\|/.exec(String(Array.isArray(value) ? value[0] : value))?.[1]);
  };
  return withTwin({ platform, store, hasher, element, badge, photoId: fileOf("ph_image"), docId: fileOf("ph_doc"), iconId: icon.id, photo });
}

let live: LiveServer<Awaited<ReturnType<typeof seed>>>;

beforeAll(async () => {
  mkdirSync(join(imagesDir, "sub"), { recursive: true });
  writeFileSync(join(imagesDir, "landscape.jpg"), await bandedImage(400, 300, "jpeg"));
  writeFileSync(join(imagesDir, "icon.png"), await bandedImage(64, 64, "png"));
  writeFileSync(join(imagesDir, "sub", "deep one.gif"), await bandedImage(30, 20, "gif"));
  writeFileSync(join(imagesDir, "fake.png"), "<html>not an image</html>");
  writeFileSync(join(imagesDir, "notes.txt"), "text");
  writeFileSync(join(imagesDir, "huge.png"), await bandedImage(600, 400, "png"));
  writeFileSync(join(imagesDir, "heavy.png"), await noisyPng(220, 220));
  writeFileSync(join(imagesDir, "broken.png"), (await bandedImage(60, 30, "png")).slice(0, 50));
  writeFileSync(join(temp, "secret.png"), await bandedImage(10, 10, "png"));
  symlinkSync(join(temp, "secret.png"), join(imagesDir, "escape.png"));
  symlinkSync(temp, join(imagesDir, "up"));
  live = await startLiveServer(seed, { images });
  const probe = await live.api.call("GET", "/api/v2/smart-elements/PH_ONE");
  expect(probe.status).toBe(200);
});

afterAll(async () => {
  await live.close();
  await images.close();
  rmSync(temp, { recursive: true, force: true });
});

const ADMIN: [string, string] = ["admin", "admin-pw"];

/** A GET with its body as bytes. */
async function get(path: string, options: { as?: [string, string] | null; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.as !== null) headers.authorization = live.api.basic(...(options.as ?? ADMIN));
  const response = await fetch(`${live.url}${path}`, { headers });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  let json: any;
  try { json = JSON.parse(text); } catch { json = undefined; }
  // Image bytes are not text: only JSON and text bodies are compared with the document's schemas.
  expectDocumentedAnswer({ method: "GET", url: path, status: response.status, contentType: response.headers.get("content-type"), body: text });
  return { status: response.status, headers: response.headers, bytes, text, json, header: readImageHeader(bytes) };
}

/** A GET sent byte for byte as written (fetch would resolve `..` and `%2e%2e` before sending). */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  const url = new URL(live.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, headers: { authorization: live.api.basic(...ADMIN) } }, (res) => {
      let body = "";
      res.on("data", (chunk) => { body += chunk; });
      res.on("end", () => {
        try {
          expectDocumentedAnswer({ method: "GET", url: path, status: res.statusCode ?? 0, contentType: res.headers["content-type"] ?? null, body });
          resolve({ status: res.statusCode ?? 0, body });
        } catch (error) {
          reject(error as Error);
        }
      });
    });
    req.on("error", reject);
    req.end();
  });
}

const errorOf = (answer: { status: number; json: any }) => [answer.status, answer.json?.messages?.[0]?.code];

describe("assets: /api/v2/images/assets/", () => {
  it("serves an original as its own type, attachment by default, inline when asked, revalidated", async () => {
    const answer = await get("/api/v2/images/assets/original/landscape.jpg");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("image/jpeg");
    expect(answer.header).toEqual({ format: "jpeg", width: 400, height: 300 });
    expect(answer.headers.get("content-disposition")).toBe(`attachment; filename="landscape.jpg"; filename*=UTF-8''landscape.jpg`);
    expect(answer.headers.get("cache-control")).toBe("public, no-cache");
    expect(answer.headers.get("etag")).toMatch(/^"[0-9a-f]{32}-o-jpeg"$/);
    for (const inline of ["true", "yes", "1", "YES"]) {
      expect((await get(`/api/v2/images/assets/original/landscape.jpg?inline=${inline}`)).headers.get("content-disposition")).toMatch(/^inline;/);
    }
    expect((await get("/api/v2/images/assets/original/landscape.jpg?inline=no")).headers.get("content-disposition")).toMatch(/^attachment;/);
  });

  it("serves a file of a subdirectory, its name percent-encoded", async () => {
    const answer = await get("/api/v2/images/assets/original/sub/deep%20one.gif?inline=1");
    expect(answer.header).toEqual({ format: "gif", width: 30, height: 20 });
    expect(answer.headers.get("content-disposition")).toBe(`inline; filename="deep one.gif"; filename*=UTF-8''deep%20one.gif`);
  });

  it.each([
    ["200", [200, 150]], ["x150", [200, 150]], ["100x100", [100, 75]], ["100x100f", [100, 75]], ["100x100c", [100, 100]],
    ["100x100s", [100, 100]], ["800", [400, 300]], ["800x900c", [400, 300]], ["800x100c", [400, 100]],
  ] as const)("resizes an asset to %s, in its own format", async (size, [width, height]) => {
    const answer = await get(`/api/v2/images/assets/sizes/${size}/landscape.jpg`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("image/jpeg");
    expect(answer.header).toEqual({ format: "jpeg", width, height });
    expect(answer.headers.get("content-disposition")).toBe(`attachment; filename="${size}-landscape.jpg"; filename*=UTF-8''${size}-landscape.jpg`);
  });

  it("refuses an invalid size with 400 CRUD0603, in plain text since the URL has an extension", async () => {
    for (const size of ["48c", "x48c", "0", "10x"]) {
      const answer = await get(`/api/v2/images/assets/sizes/${size}/landscape.jpg`);
      expect(answer.status).toBe(400);
      expect(answer.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(answer.text).toBe(`error (CRUD0603): Cannot resize image "landscape.jpg" : incorrect size "${size}"`);
    }
  });

  it("answers 404 CRUD0600 for a missing asset and 400 CRUD0601 for a file that is no image (by name or by content)", async () => {
    expect((await get("/api/v2/images/assets/original/missing.png")).text).toBe('error (CRUD0600): Asset Image file "missing.png" not found');
    expect((await get("/api/v2/images/assets/original/missing.png")).status).toBe(404);
    const fake = await get("/api/v2/images/assets/original/fake.png");
    expect([fake.status, fake.text]).toEqual([400, 'error (CRUD0601): Asset Image file "fake.png" is not an image']);
    expect((await get("/api/v2/images/assets/sizes/20/fake.png")).status).toBe(400);
    expect((await get("/api/v2/images/assets/original/notes.txt")).text).toMatch(/^error \(CRUD0601\)/);
  });
});

describe("safety", () => {
  it.each([
    "/api/v2/images/assets/original/%252e%252e/secret.png",
    "/api/v2/images/assets/original/..%2fsecret.png",
    "/api/v2/images/assets/original/..%2Fsecret.png",
    "/api/v2/images/assets/original/sub%2f..%2f..%2fsecret.png",
    "/api/v2/images/assets/original/%5c..%5csecret.png",
    "/api/v2/images/assets/original/..%5csecret.png",
    "/api/v2/images/assets/sizes/20/%2e%2e%2fsecret.png",
    "/api/v2/images/assets/original/escape.png",
    "/api/v2/images/assets/original/up/secret.png",
    "/api/v2/images/assets/sizes/20/up/secret.png",
  ])("refuses %s with 400 ROUTES0115", async (path) => {
    const answer = await rawGet(path);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatch(/^error \(ROUTES0115\)/);
  });

  it.each([
    `/api/v2/images/assets/original/${"../".repeat(3)}secret.png`,
    "/api/v2/images/assets/original/%2e%2e/%2e%2e/%2e%2e/secret.png",
    `/api/v2/images/assets/original/sub/${"../".repeat(2)}secret.png`,
  ])("never serves a file outside the Images directory for %s (the URL parser resolves the dots first)", async (path) => {
    const answer = await rawGet(path);
    expect(answer.status).not.toBe(200);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
  });

  it("refuses images over the pixel cap and over the byte cap before decoding them, with a clear 400", async () => {
    const huge = await get("/api/v2/images/assets/sizes/100/huge.png");
    expect([huge.status, huge.text]).toEqual([400, 'error (IMAGE0001): Image "huge.png" is too large to resize: 600x400 pixels, the limit is 200000']);
    const heavy = await get("/api/v2/images/assets/sizes/100/heavy.png");
    expect(heavy.status).toBe(400);
    expect(heavy.text).toMatch(/^error \(IMAGE0001\): Image "heavy.png" is too large to resize: \d+ bytes, the limit is 150000$/);
    // The original itself is still served: the caps guard decoding, not downloads.
    expect((await get("/api/v2/images/assets/original/huge.png")).status).toBe(200);
  });

  it("answers a corrupt image with 400 CRUD0602, and keeps serving", async () => {
    const broken = await get("/api/v2/images/assets/sizes/20/broken.png");
    expect([broken.status, broken.text]).toEqual([400, 'error (CRUD0602): Cannot resize image "broken.png" for "20x10" size']);
    expect((await get("/api/v2/images/assets/sizes/21/landscape.jpg")).status).toBe(200);
  });

  it("requires credentials like every /api/ route (bundle.md: 401 without them)", async () => {
    const answer = await get("/api/v2/images/assets/original/landscape.jpg", { as: null });
    expect(answer.status).toBe(401);
  });
});

describe("recorded: /api/v2/images/recorded/", () => {
  it("serves a vault image's original, immutable, with or without a matching extension", async () => {
    const { photoId } = live.seed;
    for (const suffix of ["", ".jpg", ".jpeg", ".JPG"]) {
      const answer = await get(`/api/v2/images/recorded/original/${photoId}${suffix}`, { headers: { accept: "image/avif,image/webp" } });
      expect(answer.status).toBe(200);
      expect(answer.bytes).toEqual(live.seed.photo);
      expect(answer.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(answer.headers.get("content-disposition")).toMatch(/^attachment; filename="photo.jpg"/);
    }
  });

  it("refuses an extension that does not match the stored image (CRUD0604), a file that is no image (ROUTES0201) and an unknown id (ROUTES0200)", async () => {
    const { photoId, docId } = live.seed;
    const wrong = await get(`/api/v2/images/recorded/original/${photoId}.png`);
    expect([wrong.status, wrong.text]).toEqual([400, `error (CRUD0604): Cannot get original recorded image "${photoId}.png" : extension "png" not correct`]);
    expect(errorOf(await get(`/api/v2/images/recorded/original/${docId}`))).toEqual([400, "ROUTES0201"]);
    expect(errorOf(await get(`/api/v2/images/recorded/sizes/20/${docId}`))).toEqual([400, "ROUTES0201"]);
    const unknown = await get("/api/v2/images/recorded/original/999999");
    expect(errorOf(unknown)).toEqual([404, "ROUTES0200"]);
    expect(unknown.json.success).toBe(false);
    expect(errorOf(await get("/api/v2/images/recorded/original/abc"))).toEqual([404, "ROUTES0200"]);
  });

  it.each([
    ["png", "png"], ["jpg", "jpeg"], ["jpeg", "jpeg"], ["gif", "gif"], ["GIF", "gif"],
  ] as const)("resizes and converts to .%s", async (extension, format) => {
    const answer = await get(`/api/v2/images/recorded/sizes/100x100c/${live.seed.photoId}.${extension}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe(`image/${format}`);
    expect(answer.header).toEqual({ format, width: 100, height: 100 });
    expect(answer.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("keeps the stored format without an extension, and refuses other extensions with API0005", async () => {
    const same = await get(`/api/v2/images/recorded/sizes/x60/${live.seed.photoId}`);
    expect(same.header).toEqual({ format: "jpeg", width: 80, height: 60 });
    const webp = await get(`/api/v2/images/recorded/sizes/x60/${live.seed.photoId}.webp`);
    expect([webp.status, webp.text]).toEqual([400, "error (API0005): Unable to return the type webp"]);
  });

  it("points an element's icon at the recorded route when the icon is a vault image", async () => {
    const answer = await live.api.call("GET", "/api/v2/smart-elements/BD_ONE");
    const icon = answer.json.data.document.properties.icon;
    expect(icon).toBe(`/api/v2/images/recorded/sizes/24x24c/${live.seed.iconId}.png`);
    expect((await get(icon)).header).toEqual({ format: "png", width: 24, height: 24 });
    const photo = await live.api.call("GET", "/api/v2/smart-elements/PH_ONE");
    const assetIcon = photo.json.data.document.properties.icon;
    expect(assetIcon).toBe("/api/v2/images/assets/sizes/24x24c/icon.png");
    expect((await get(assetIcon)).header).toEqual({ format: "png", width: 24, height: 24 });
  });
});

describe("image fields: /api/v2/smart-elements/<docid>/images/<attrid>/<index>/sizes/<size>.<ext>", () => {
  const field = (rest: string) => `/api/v2/smart-elements/PH_ONE/images/${rest}`;

  it.each([
    ["ph_image/-1/sizes/200.png", { format: "png", width: 200, height: 150 }],
    ["ph_image/-1/sizes/48x48c.gif", { format: "gif", width: 48, height: 48 }],
    ["ph_gallery/0/sizes/30.jpg", { format: "jpeg", width: 30, height: 30 }],
    ["ph_gallery/1/sizes/100x30s.png", { format: "png", width: 100, height: 30 }],
    ["ph_rows/0/sizes/45x90.png", undefined],
    ["ph_row_img/0/sizes/45x90.png", { format: "png", width: 45, height: 45 }],
  ] as const)("serves %s", async (rest, expected) => {
    const answer = await get(field(rest), { as: ["vera", "vera-pw"] });
    if (!expected) {
      expect(answer.status).toBe(404);
      return;
    }
    expect(answer.status).toBe(200);
    expect(answer.header).toEqual(expected);
    expect(answer.headers.get("cache-control")).toBe("private, no-cache");
  });

  it("names the download <size>-<name> with the requested extension", async () => {
    const answer = await get(field("ph_image/-1/sizes/200.png?inline=true"));
    expect(answer.headers.get("content-disposition")).toBe(`inline; filename="200-photo.png"; filename*=UTF-8''200-photo.png`);
  });

  it.each([
    ["ph_image/0/sizes/20.png", 400, "ROUTES0122"],
    ["ph_gallery/-1/sizes/20.png", 400, "ROUTES0121"],
    ["ph_gallery/-2/sizes/20.png", 400, "ROUTES0123"],
    ["ph_gallery/x/sizes/20.png", 400, "ROUTES0123"],
    ["ph_gallery/7/sizes/20.png", 404, "ROUTES0118"],
    ["ph_hidden/-1/sizes/20.png", 404, "ROUTES0116"],
    ["ph_nothing/-1/sizes/20.png", 404, "ROUTES0116"],
    ["ph_words/-1/sizes/20.png", 400, "ROUTES0124"],
    ["ph_doc/-1/sizes/20.png", 400, "ROUTES0201"],
    ["ph_image/-1/sizes/20c.png", 400, "CRUD0603"],
    ["ph_image/-1/sizes/20.bmp", 400, "API0005"],
  ] as const)("refuses %s with %i %s, as plain text", async (rest, status, code) => {
    const answer = await get(field(rest));
    expect(answer.status).toBe(status);
    expect(answer.text).toMatch(new RegExp(`^error \\(${code}\\): `));
  });

  it("does not say whether a field of visibility I exists: the same answer as an unknown field", async () => {
    const hidden = await get(field("ph_hidden/-1/sizes/20.png"));
    const unknown = await get(field("ph_nothing/-1/sizes/20.png"));
    expect(hidden.text.replace("ph_hidden", "X")).toBe(unknown.text.replace("ph_nothing", "X"));
  });

  it("needs the view right on the element, and answers JSON without an extension", async () => {
    const answer = await get(field("ph_image/-1/sizes/20.png"), { as: ["sam", "sam-pw"] });
    expect([answer.status, answer.text]).toEqual([403, 'error (ROUTES0101): Document "PH_ONE" access deny : Access not granted']);
    expect(errorOf(await get("/api/v2/smart-elements/NOPE/images/ph_image/-1/sizes/20.png"))).toEqual([404, undefined]);
    const noExtension = await get(field("ph_image/-1/sizes/20"));
    expect(errorOf(noExtension)).toEqual([400, "API0005"]);
  });
});

describe("speed: caching and single flight", () => {
  it("answers 304 with no body when If-None-Match names the strong ETag", async () => {
    for (const path of ["/api/v2/images/assets/sizes/50/landscape.jpg", "/api/v2/images/assets/original/icon.png", `/api/v2/images/recorded/sizes/50/${live.seed.photoId}.png`]) {
      const first = await get(path);
      const etag = first.headers.get("etag") ?? "";
      expect(etag).toMatch(/^"[0-9a-f]{32}-[^"]+"$/);
      const again = await get(path, { headers: { "if-none-match": `"other", ${etag}` } });
      expect(again.status).toBe(304);
      expect(again.bytes.byteLength).toBe(0);
      expect(again.headers.get("etag")).toBe(etag);
      expect((await get(path, { headers: { "if-none-match": '"other"' } })).status).toBe(200);
    }
  });

  it("computes a variant asked 50 times at once exactly once, then serves it from the disk cache", async () => {
    const before = processor.computations;
    const answers = await Promise.all(Array.from({ length: 50 }, () => get("/api/v2/images/assets/sizes/123x77c/landscape.jpg")));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(new Set(answers.map((answer) => answer.headers.get("etag"))).size).toBe(1);
    expect(answers.every((answer) => answer.header?.width === 123 && answer.header.height === 77)).toBe(true);
    expect(processor.computations - before).toBe(1);
    await get("/api/v2/images/assets/sizes/123x77c/landscape.jpg");
    expect(processor.computations - before).toBe(1);
  });

  it("shares one variant between sizes that clamp to the same plan", async () => {
    const before = processor.computations;
    const a = await get(`/api/v2/images/recorded/sizes/5000/${live.seed.photoId}.gif`);
    const b = await get(`/api/v2/images/recorded/sizes/9000x9000/${live.seed.photoId}.gif`);
    expect(a.headers.get("etag")).toBe(b.headers.get("etag"));
    expect(processor.computations - before).toBe(1);
  });
});

describe("unavailable methods and uploads", () => {
  it.each(["POST", "PUT", "DELETE"])("answers %s on /api/v2/images/* with 501", async (method) => {
    for (const path of ["/api/v2/images/assets/original/icon.png", `/api/v2/images/recorded/original/${live.seed.photoId}`, "/api/v2/images/anything"]) {
      const answer = await live.api.call(method, path);
      expect([answer.status, answer.json?.messages?.[0]?.code]).toEqual([501, "CRUD0103"]);
    }
  });

  it("records an upload's image type from its content, not from the client's claim", async () => {
    const form = new FormData();
    form.append("ph_image", new Blob([await bandedImage(20, 20, "png")], { type: "text/plain" }), "claimed.txt");
    const put = await live.api.call("PUT", "/api/v2/smart-elements/PH_ONE", { body: form });
    expect(put.status).toBe(200);
    const stored = (await live.seed.store.elements.latestByName("PH_ONE"))?.values.ph_image;
    expect(String(stored)).toMatch(/^image\/png\|\d+\|claimed\.txt$/);
    const lie = new FormData();
    lie.append("ph_image", new Blob(["<script>alert(1)</script>"], { type: "image/png" }), "evil.png");
    const refused = await live.api.call("PUT", "/api/v2/smart-elements/PH_ONE", { body: lie });
    expect(refused.status).toBe(400);
    expect(refused.json.messages[0].contentText).toMatch(/not an image/);
  });
});

describe("a full resize queue", () => {
  it("answers 503 IMAGE0002 with Retry-After (plain text with an extension, JSON without), serves the resizes it took, and recovers", async () => {
    // A node of its own whose jimp pool takes one resize and lets one wait: the others are refused at once.
    const busy = createJimpImages({ imagesDir, cacheDir: join(temp, "cache-busy"), processor: createJimpProcessor({ workers: 1, maxQueue: 1 }) });
    const server = await startServer(createHttpApp({ platform: live.seed.platform, images: busy, onUnexpectedError: (error) => { throw error; } }));
    try {
      const ask = async (path: string) => {
        const response = await fetch(`${server.url}${path}`, { headers: { authorization: live.api.basic(...ADMIN) } });
        const text = new TextDecoder().decode(new Uint8Array(await response.arrayBuffer()));
        expectDocumentedAnswer({ method: "GET", url: path, status: response.status, contentType: response.headers.get("content-type"), body: text });
        return { status: response.status, retryAfter: response.headers.get("retry-after"), text };
      };
      const sizes = [101, 102, 103, 104, 105, 106, 107, 108];
      const assets = await Promise.all(sizes.map((size) => ask(`/api/v2/images/assets/sizes/${size}/huge.png`)));
      const recorded = await Promise.all(sizes.map((size) => ask(`/api/v2/images/recorded/sizes/${size}/${live.seed.photoId}`)));
      for (const [answers, refusal] of [[assets, /^error \(IMAGE0002\): Too many images are waiting to be resized/], [recorded, /"code":"IMAGE0002"/]] as const) {
        const refused = answers.filter((answer) => answer.status === 503);
        expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(1);
        expect(refused.length).toBeGreaterThanOrEqual(1);
        expect(answers.every((answer) => answer.status === 200 || answer.status === 503)).toBe(true);
        for (const answer of refused) expect([answer.retryAfter, answer.text]).toEqual(["5", expect.stringMatching(refusal)]);
      }
      // Once the queue has moved, every size is served.
      for (const size of sizes) expect((await ask(`/api/v2/images/assets/sizes/${size}/huge.png`)).status).toBe(200);
    } finally {
      await server.close();
      await busy.close();
    }
  });
});
