import { Hono, type Context } from "hono";
import * as v from "valibot";
import {
  LineageError, contentDisposition, errorCodeDefinition, extensionOf, formatOfExtension, isLineageError, mimeOfFormat, wantsInline,
  type ImageAnswer, type ImageFormat, type ImageStore, type ImageVariants, type SourceImage,
} from "@lineage/core";
import type { HttpEnv } from "../http-env.ts";
import { describedRoute, type RouteDescription } from "../openapi/index.ts";
import { pathnameOf } from "../request-path.ts";

/** What the Images routes read from and resize with (`createJimpImages` of @lineage/adapter-images gives both). */
export interface ImageServices {
  readonly store: ImageStore;
  readonly variants: ImageVariants;
}

/** A size of the Images routes (api-v2.md, Images, rule 5); the handler's parser gives CRUD0603 for the rest. */
export const ImageSizeSchema = v.pipe(v.string(), v.regex(/^(x?[0-9]+|[0-9]+x[0-9]+[fsc]?)$/), v.description("`W`, `xH`, `WxH` (fit), `WxHc` (cover, centred crop) or `WxHs` (stretch)"));
/** A vault image: its identifier, with an optional extension. */
export const RecordedImageSchema = v.pipe(v.string(), v.regex(/^[0-9]+(\.[A-Za-z0-9]+)?$/), v.description("vault identifier, optionally `.png`, `.jpg`, `.jpeg` or `.gif`"));
/** The row of an image field: -1 outside an array. */
export const ImageIndexSchema = v.pipe(v.string(), v.regex(/^-?[0-9]+$/), v.description("-1 when the field is not in an array, else the row (0 = first)"));
/** The last segment of the image field route: a size and a mandatory extension. */
export const SizeWithExtensionSchema = v.pipe(v.string(), v.regex(/^.+\.(png|jpe?g|gif)$/i), v.description("`<size>.<extension>`"));
export const ImageQuerySchema = v.object({
  inline: v.optional(v.pipe(v.string(), v.description("true, yes or 1: Content-Disposition inline; otherwise attachment"))),
});

const param = (c: Context, name: string): string => c.req.param(name) ?? "";
/** A server built without image services (createHttpApp without `images`) answers every image route 501 CRUD0103. */
const UNSERVED = "CRUD0103";
const ASSET_ERRORS = ["API0011", "ROUTES0115", "CRUD0600", "CRUD0601", "CRUD0602", "CRUD0603", "IMAGE0001", "IMAGE0002", UNSERVED] as const;
const RECORDED_ERRORS = ["ROUTES0200", "ROUTES0201", "CRUD0602", "CRUD0603", "CRUD0604", "API0005", "IMAGE0001", "IMAGE0002", UNSERVED] as const;
const image = { contentType: "image/*", description: "The image bytes" };
const DESCRIPTION = "Errors are the JSON envelope, or plain text `error (<code>): <text>` when the URL ends in an extension other than .json. " +
  "A server without image services answers 501 CRUD0103.";
const served = { description: DESCRIPTION, etag: true, plainTextErrors: true } as const;

const DESCRIBED: Record<"assetOriginal" | "assetSized" | "recordedOriginal" | "recordedSized" | "fieldImage", RouteDescription> = {
  assetOriginal: { tag: "Images", summary: "Original image of the server Images directory",
    query: ImageQuerySchema, response: image, errors: [...ASSET_ERRORS], ...served },
  assetSized: { tag: "Images", summary: "Resized image of the server Images directory",
    params: { size: ImageSizeSchema }, query: ImageQuerySchema, response: image, errors: [...ASSET_ERRORS], ...served },
  recordedOriginal: { tag: "Images", summary: "Original public image of the vault",
    params: { image: RecordedImageSchema }, query: ImageQuerySchema, response: image, errors: [...RECORDED_ERRORS], ...served },
  recordedSized: { tag: "Images", summary: "Resized public image of the vault, converted to the extension",
    params: { size: ImageSizeSchema, image: RecordedImageSchema }, query: ImageQuerySchema, response: image, errors: [...RECORDED_ERRORS], ...served },
  fieldImage: { tag: "Images",
    summary: "Resized image held in an image Smart Field (view right on the element)",
    params: { index: ImageIndexSchema, size: SizeWithExtensionSchema }, query: ImageQuerySchema, response: image,
    errors: ["ROUTES0100", "ROUTES0101", "ROUTES0102", "ROUTES0116", "ROUTES0118", "ROUTES0119", "ROUTES0120", "ROUTES0121", "ROUTES0122",
      "ROUTES0123", "ROUTES0124", "ROUTES0201", "CRUD0602", "CRUD0603", "API0005", "IMAGE0001", "IMAGE0002", UNSERVED], ...served },
};
/** POST, PUT, DELETE and PATCH under /api/v2/images/ (not-available.ts answers them). */
export const IMAGES_READ_ONLY: RouteDescription = { tag: "Images", summary: "Unavailable: images are read-only", unavailable: true };

/** How long a client may keep an answer: vault content never changes under its identifier; assets and fields can. */
const CACHE = {
  immutable: "public, max-age=31536000, immutable",
  asset: "public, no-cache",
  field: "private, no-cache",
} as const;

/** The extension of the URL's last segment, when it has one other than json: errors are then plain text. */
function textErrorsWanted(c: Context): boolean {
  const last = pathnameOf(c.req.url).split("/").pop() ?? "";
  const extension = extensionOf(last);
  return extension !== "" && extension !== "json";
}

/**
 * Runs a handler; with a non-json extension in the URL a domain error answers as plain text
 * `error (<code>): <text>` (api-v2.md, Images, rule 7), otherwise it goes to the JSON envelope.
 */
function imageHandler(handle: (c: Context<HttpEnv>) => Promise<Response>) {
  return async (c: Context<HttpEnv>) => {
    try {
      return await handle(c);
    } catch (error) {
      if (!isLineageError(error) || !textErrorsWanted(c)) throw error;
      // As the envelope has it (create-http-app.ts): a passing refusal (IMAGE0002, too many resizes waiting) says when to come back.
      const retryAfter = errorCodeDefinition(error.code).retryAfter;
      const headers = { "Cache-Control": "no-store", ...(retryAfter === undefined ? {} : { "Retry-After": String(retryAfter) }) };
      return c.text(`error (${error.code}): ${error.message}`, error.status as 400, headers);
    }
  };
}

/**
 * The asset path after the first `skip` segments of the URL (`/api/v2/images/assets/original/` is 5),
 * decoded once. `..` is refused as a segment however it is hidden: raw, percent-encoded,
 * double-encoded, between backslashes.
 */
function assetPath(c: Context, skip: number): string {
  const raw = pathnameOf(c.req.url).split("/").slice(skip + 1).join("/");
  let path: string | undefined;
  let current = raw;
  for (let round = 0; round < 4; round++) {
    if (current.split(/[\\/]/).includes("..")) throw new LineageError("ROUTES0115", [path ?? raw]);
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      if (path === undefined) throw new LineageError("API0011", [raw]);
      break;
    }
    path ??= next;
    if (next === current) break;
    current = next;
  }
  return path ?? raw;
}

/** Sends an image: strong ETag from its key, 304 when the client has it, the disposition asked for. */
function sendImage(c: Context, answer: ImageAnswer, filename: string, cacheControl: string): Response {
  const etag = `"${answer.key}"`;
  const headers: Record<string, string> = { ETag: etag, "Cache-Control": cacheControl };
  const asked = c.req.header("if-none-match");
  if (asked && asked.split(",").some((tag) => { const t = tag.trim().replace(/^W\//, ""); return t === etag || t === "*"; })) {
    return c.body(null, 304, headers);
  }
  headers["Content-Type"] = mimeOfFormat(answer.format);
  headers["Content-Disposition"] = contentDisposition(wantsInline(c.req.query("inline")), filename);
  headers["X-Content-Type-Options"] = "nosniff";
  return c.body(answer.bytes as Uint8Array<ArrayBuffer>, 200, headers);
}

/** `<size>-<name>` with the extension of the format sent, as the original names resized downloads. */
function resizedName(size: string, name: string, format: ImageFormat, extension?: string): string {
  const stem = name.replace(/\.[^.]*$/, "") || "image";
  return `${size}-${stem}.${extension ?? (format === "jpeg" ? "jpg" : format)}`;
}

/** `<vid>` or `<vid>.<ext>`: the vault image and the format the extension names. */
async function recordedImage(c: Context<HttpEnv>, segment: string): Promise<{ source: SourceImage; extension: string }> {
  const match = /^([0-9]{1,15})(?:\.([A-Za-z0-9]+))?$/.exec(segment);
  const image = match ? await c.var.platform.images.recorded(Number(match[1])) : undefined;
  if (!image) throw new LineageError("ROUTES0200", [segment]);
  return { source: { bytes: image.bytes, hash: image.file.sha256, name: image.name }, extension: (match?.[2] ?? "").toLowerCase() };
}

/** The output format an extension asks for; API0005 for any other. */
function requestedFormat(extension: string): ImageFormat {
  const format = formatOfExtension(extension);
  if (!format) throw new LineageError("API0005", [extension]);
  return format;
}

/** The original of a vault image, which must be an image (ROUTES0201 otherwise). */
function recordedOriginal(images: ImageServices, source: SourceImage): ImageAnswer {
  try {
    return images.variants.original(source);
  } catch (error) {
    if (isLineageError(error) && error.code === "CRUD0601") throw new LineageError("ROUTES0201", [source.name]);
    throw error;
  }
}

/**
 * The Images routes (api-v2.md, Images): originals and resized variants of the server Images
 * directory (assets) and of the vault (recorded), and the image of an image Smart Field.
 * POST, PUT and DELETE answer 501 (not-available.ts), with or without these routes.
 */
export function imageRoutes(images: ImageServices): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });

  const asset = async (c: Context<HttpEnv>, skip: number): Promise<{ source: SourceImage; path: string }> => {
    const path = assetPath(c, skip);
    if (!formatOfExtension(extensionOf(path))) throw new LineageError("CRUD0601", [path]);
    const source = await images.store.asset(path);
    if (!source) throw new LineageError("CRUD0600", [path]);
    return { source, path };
  };

  app.get("/images/assets/original/*", describedRoute(DESCRIBED.assetOriginal, imageHandler(async (c) => {
    const { source } = await asset(c, 5);
    return sendImage(c, images.variants.original(source), source.name, CACHE.asset);
  })));
  app.get("/images/assets/sizes/:size/*", describedRoute(DESCRIBED.assetSized, imageHandler(async (c) => {
    const size = param(c, "size");
    const { source } = await asset(c, 6);
    const answer = await images.variants.variant(source, size);
    return sendImage(c, answer, resizedName(size, source.name, answer.format, extensionOf(source.name)), CACHE.asset);
  })));

  app.get("/images/recorded/original/:image", describedRoute(DESCRIBED.recordedOriginal, imageHandler(async (c) => {
    const { source, extension } = await recordedImage(c, param(c, "image"));
    const answer = recordedOriginal(images, source);
    if (extension && formatOfExtension(extension) !== answer.format) throw new LineageError("CRUD0604", [param(c, "image"), extension]);
    return sendImage(c, answer, source.name, CACHE.immutable);
  })));
  app.get("/images/recorded/sizes/:size/:image", describedRoute(DESCRIBED.recordedSized, imageHandler(async (c) => {
    const size = param(c, "size");
    const { source, extension } = await recordedImage(c, param(c, "image"));
    const format = extension ? requestedFormat(extension) : undefined;
    recordedOriginal(images, source);
    const answer = await images.variants.variant(source, size, format);
    return sendImage(c, answer, resizedName(size, source.name, answer.format, extension || undefined), CACHE.immutable);
  })));

  app.get("/smart-elements/:docid/images/:attrid/:index/sizes/:size", describedRoute(DESCRIBED.fieldImage, imageHandler(async (c) => {
    const match = /^(.*)\.([A-Za-z0-9]+)$/.exec(param(c, "size"));
    if (!match) throw new LineageError("API0005", [""]);
    const [, size = "", extension = ""] = match;
    const format = requestedFormat(extension);
    const { platform, principal } = c.var;
    const { file, bytes, name } = await platform.images.fieldImage(principal, param(c, "docid"), param(c, "attrid"), param(c, "index"), c.var.stamp);
    const source = { bytes, hash: file.sha256, name };
    recordedOriginal(images, source);
    const answer = await images.variants.variant(source, size, format);
    return sendImage(c, answer, resizedName(size, name, format, extension.toLowerCase()), CACHE.field);
  })));

  return app;
}
