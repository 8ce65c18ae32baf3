// An app outside the workspace that embeds Lineage from the installed tarballs: its catalog from a
// bundle, the store on SQLite (or PostgreSQL with --database URL), the HTTP API with images resized
// in worker threads and full-text search. It asks its own server and prints what it answered, as JSON.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MIME_ICON_NAMES, createPlatform, readImageHeader } from "@lineage/core";
import { openSqliteStore } from "@lineage/adapter-sqlite";
import { openPostgresStore } from "@lineage/adapter-postgres";
import { createHttpApp, startServer } from "@lineage/adapter-http";
import { createJimpImages } from "@lineage/adapter-images";
import { createCompactSearchIndex } from "@lineage/adapter-search";
import { createNodeScryptPasswordHasher } from "@lineage/adapter-node";

const [dataDir, flag, databaseUrl] = process.argv.slice(2);
if (!dataDir || (flag && flag !== "--database")) throw new Error("usage: node app.mjs DATA_DIR [--database URL]");

const bundle = {
  accounts: { users: [{ login: "cook", password: "cook-pw", roles: ["admin"] }] },
  structures: [{
    name: "RECIPE", titleField: "rc_name",
    fields: [{ id: "rc_name", type: "text", needed: true }, { id: "rc_minutes", type: "int" }],
  }],
  elements: [{ structure: "RECIPE", name: "R_OMELETTE", values: { rc_name: "Omelette aux herbes", rc_minutes: 10 } }],
  searchDomains: [{
    name: "recipes", lang: "fr", stem: "french",
    configs: [{ structure: "RECIPE", fields: [{ field: "rc_name", weight: "A" }], files: [], callables: [] }],
  }],
};

// A 4x2 PNG, red then blue, for the images directory.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAIAAADwyuo0AAAAE0lEQVR4nGP4z8AARGDiPwMyBwBnsgf5Q2OaZwAAAABJRU5ErkJggg==", "base64");
const imagesDir = join(dataDir, "images");
mkdirSync(imagesDir, { recursive: true });
writeFileSync(join(imagesDir, "dot.png"), PNG);

const store = databaseUrl ? await openPostgresStore({ url: databaseUrl }) : openSqliteStore({ dataDir: join(dataDir, "data") });
const platform = createPlatform({
  store, hasher: createNodeScryptPasswordHasher(),
  searchIndex: createCompactSearchIndex({ dir: join(dataDir, "search"), log: () => {} }), searchLog: () => {},
});
const report = await platform.bundles.import(bundle, { readFile: () => undefined });
const images = createJimpImages({ imagesDir, cacheDir: join(dataDir, "image-cache"), workers: 1 });
const server = await startServer(createHttpApp({ platform, images }), { port: 0 });

const authorization = `Basic ${Buffer.from("cook:cook-pw").toString("base64")}`;
const get = (path) => fetch(`${server.url}${path}`, { headers: { authorization } });
try {
  const element = await get("/api/v2/smart-elements/R_OMELETTE.json");
  const found = await get("/api/v2/fullsearch/domains/recipes/smart-elements/?q=omelettes");
  const image = await get("/api/v2/images/assets/sizes/2x1/dot.png");
  // An asset the images package ships itself (assets/ beside its code).
  const icon = await get(`/api/v2/images/assets/original/mime/png/${MIME_ICON_NAMES[0]}.png`);
  console.log(JSON.stringify({
    imported: report.elements,
    element: { status: element.status, title: (await element.json()).data?.document?.properties?.title },
    search: { status: found.status, titles: ((await found.json()).data?.documents ?? []).map((doc) => doc.properties?.title) },
    image: { status: image.status, type: image.headers.get("content-type"), header: readImageHeader(new Uint8Array(await image.arrayBuffer())) },
    icon: { status: icon.status, type: icon.headers.get("content-type") },
  }));
} finally {
  await server.close();
  await images.close();
  await store.close();
}
