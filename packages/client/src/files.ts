import { elementPath, segment } from "./path-segment.ts";
import type { Transport } from "./transport.ts";

/** A file or image as downloaded: its bytes (with their type), its name and its ETag. */
export interface Download {
  readonly blob: Blob;
  readonly type: string;
  /** The stored file's name (Content-Disposition), when the answer gives one. */
  readonly fileName: string | undefined;
  readonly etag: string | undefined;
}

/** Which file of a field: its position (`index`, -1 outside arrays and lists, the default), of a past revision. */
export interface FileOptions {
  readonly index?: number;
  readonly revision?: number;
  readonly structure?: string;
  readonly signal?: AbortSignal;
}

/** Files of file and image fields, and images (docs/api.md, Files and Images). */
export interface FilesApi {
  /** GET …/files/<field>/<index>/<name>: the file a field holds. */
  download(ref: string | number, field: string, options?: FileOptions): Promise<Download>;
}

/** Public images and the images of elements, original or resized (`size`: `48`, `x48`, `48x32`, `48x48c`, `48x48s`). */
export interface ImagesApi {
  /** GET /api/v2/images/assets/…: an image of the server's Images directory. */
  asset(path: string, options?: { readonly size?: string; readonly signal?: AbortSignal }): Promise<Download>;
  /** GET /api/v2/images/recorded/…: a public image of the vault (`5.png`), converted to the extension given. */
  recorded(image: string, options?: { readonly size?: string; readonly signal?: AbortSignal }): Promise<Download>;
  /** GET …/images/<field>/<index>/sizes/<size>.<extension>: the image a field holds, resized. */
  ofField(ref: string | number, field: string, size: string, options?: { readonly index?: number; readonly extension?: "png" | "jpg" | "jpeg" | "gif"; readonly signal?: AbortSignal }): Promise<Download>;
}

async function downloadOf(response: Response): Promise<Download> {
  const blob = await response.blob();
  return { blob, type: blob.type, fileName: fileNameOf(response.headers.get("content-disposition")), etag: response.headers.get("etag") ?? undefined };
}

/** The name of Content-Disposition: `filename*` (RFC 6266, UTF-8) first, else `filename`. */
function fileNameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended);
    } catch {
      // A malformed escape: the plain name instead.
    }
  }
  return /filename="([^"]*)"/i.exec(disposition)?.[1] ?? /filename=([^;]+)/i.exec(disposition)?.[1];
}

/** The files area over a transport. */
export function filesApi(transport: Transport): FilesApi {
  return {
    async download(ref, field, options = {}) {
      const revision = options.revision === undefined ? "" : `/revisions/${segment(options.revision)}`;
      // The last segment names the download only: the stored file's own name is given back.
      const path = `${elementPath(ref, options.structure)}${revision}/files/${segment(field)}/${segment(options.index ?? -1)}/file`;
      return downloadOf(await transport.raw({ method: "GET", path, accept: "*/*", signal: options.signal }));
    },
  };
}

/** The images area over a transport. */
export function imagesApi(transport: Transport): ImagesApi {
  const image = async (path: string, signal: AbortSignal | undefined) => downloadOf(await transport.raw({ method: "GET", path, accept: "*/*", signal }));
  const encodedPath = (path: string) => path.split("/").map(segment).join("/");
  return {
    asset: (path, options = {}) =>
      image(options.size ? `/api/v2/images/assets/sizes/${segment(options.size)}/${encodedPath(path)}` : `/api/v2/images/assets/original/${encodedPath(path)}`, options.signal),
    recorded: (name, options = {}) =>
      image(options.size ? `/api/v2/images/recorded/sizes/${segment(options.size)}/${segment(name)}` : `/api/v2/images/recorded/original/${segment(name)}`, options.signal),
    ofField: (ref, field, size, options = {}) =>
      image(`${elementPath(ref)}/images/${segment(field)}/${segment(options.index ?? -1)}/sizes/${segment(size)}.${options.extension ?? "png"}`, options.signal),
  };
}
