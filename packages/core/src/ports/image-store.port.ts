/** The bytes of a source image and what identifies its content. */
export interface SourceImage {
  readonly bytes: Uint8Array;
  /** Hex digest of the content: the same bytes always give the same hash. */
  readonly hash: string;
  /** The file name shown in downloads. */
  readonly name: string;
}

/**
 * Where images come from and where their resized variants are kept: the server Images
 * directory (assets) and a cache of variants by key.
 */
export interface ImageStore {
  /**
   * The asset at `path`, relative to the Images directory; undefined when there is no such file.
   * A path that would leave the directory (`..`, a symbolic link pointing out) is refused with ROUTES0115.
   */
  asset(path: string): Promise<SourceImage | undefined>;
  /** The cached variant under `key`, or undefined. */
  variant(key: string): Promise<Uint8Array | undefined>;
  /** Keeps a variant under `key`; readers see the whole variant or none. */
  saveVariant(key: string, bytes: Uint8Array): Promise<void>;
}
