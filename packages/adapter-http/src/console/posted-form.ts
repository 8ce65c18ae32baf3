import { LineageError, mimeByContent, type UploadedFile } from "@lineage/core";
import type { Context } from "hono";
import { headerOf } from "../request-header.ts";

/** A posted form: every value of each name in order (a repeated name, a multiple select), and the files of a multipart one. */
export interface PostedForm {
  /** The first value of a name, as single inputs send it. */
  one(name: string): string | undefined;
  /** Every text value of a name, in the page's order. */
  all(name: string): string[];
  /** The file chosen for a name; none when the input was left empty. */
  file(name: string): UploadedFile | undefined;
}

/** The largest file the console takes (the API's default upload limit). */
export const MAX_CONSOLE_UPLOAD = 16 * 1024 * 1024;

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/** Reads a form body; a body that is no form reads as an empty form (the form token check then refuses it). */
export async function postedForm(c: Context): Promise<PostedForm> {
  const type = headerOf(c, "content-type")?.toLowerCase() ?? "";
  let body: Record<string, string | File | (string | File)[]> = {};
  if (FORM_TYPES.some((form) => type.startsWith(form))) {
    try {
      body = await c.req.parseBody({ all: true });
    } catch {
      body = {};
    }
  }
  const items = (name: string) => {
    const raw = body[name];
    return raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  };
  const files = new Map<string, UploadedFile>();
  for (const name of Object.keys(body)) {
    // A file input left empty posts a nameless, empty part: that is no file.
    const file = items(name).find((item): item is File => item instanceof File && (item.size > 0 || item.name !== ""));
    if (!file) continue;
    if (file.size > MAX_CONSOLE_UPLOAD) throw new LineageError("API0102", [file.name, MAX_CONSOLE_UPLOAD]);
    const content = new Uint8Array(await file.arrayBuffer());
    // The browser's type is a claim: an image type is recorded only when the bytes are one.
    files.set(name, { kind: "upload", name: file.name || "file", mime: mimeByContent(content, file.type), content });
  }
  const texts = (name: string) => items(name).filter((item): item is string => typeof item === "string");
  return { one: (name) => texts(name)[0], all: texts, file: (name) => files.get(name) };
}
