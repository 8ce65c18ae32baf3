import type { Principal } from "../accounts/principal.ts";
import type { PlatformContext } from "../scope/platform-context.ts";
import { readFieldFile, type FieldFileDownload, type FieldFileOptions } from "./field-file.ts";

/** Files held by file and image fields. */
export interface FilesFacade {
  /** The file a field holds (of the latest revision, or of one revision), for a principal who may view the element. */
  read(principal: Principal, docid: string, field: string, index: string, options?: FieldFileOptions): Promise<FieldFileDownload>;
}

/** The files façade over a platform's context. */
export function createFilesFacade(context: PlatformContext): FilesFacade {
  return {
    read: async (principal, docid, field, index, options) => readFieldFile(await context.scope(principal, options?.stamp), docid, field, index, options),
  };
}
