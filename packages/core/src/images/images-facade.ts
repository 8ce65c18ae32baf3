import type { Principal } from "../accounts/principal.ts";
import { LineageError } from "../errors/lineage-error.ts";
import type { ChangeStamp } from "../ports/change-clock.port.ts";
import type { VaultFile } from "../ports/vault.port.ts";
import type { PlatformContext } from "../scope/platform-context.ts";
import { locateFieldImage } from "./field-image.ts";

/** An image to resize: the vault file, its bytes, and the name a download of it starts from. */
export interface ImageSource {
  readonly file: VaultFile;
  readonly bytes: Uint8Array;
  readonly name: string;
}

/** Images kept in the vault: the sources of the resized variants the image routes answer. */
export interface ImagesFacade {
  /** The image an image field holds (`index` -1 outside an array), for a principal who may view the element; 404 ROUTES0200 when its bytes are gone. */
  fieldImage(principal: Principal, docid: string, field: string, index: string, stamp?: ChangeStamp): Promise<ImageSource>;
  /** A vault file by id (the recorded images' routes), or undefined when there is none. */
  recorded(id: number): Promise<ImageSource | undefined>;
}

/** The images façade over a platform's context. */
export function createImagesFacade(context: PlatformContext): ImagesFacade {
  const { vault } = context.store;
  return {
    async fieldImage(principal, docid, field, index, stamp) {
      const { file, name } = await locateFieldImage(await context.scope(principal, stamp), docid, field, index);
      const bytes = await vault.read(file.id);
      if (!bytes) throw new LineageError("ROUTES0200", [String(file.id)]);
      return { file, bytes, name };
    },
    async recorded(id) {
      const file = await vault.file(id);
      const bytes = file && (await vault.read(file.id));
      return file && bytes ? { file, bytes, name: file.name } : undefined;
    },
  };
}
