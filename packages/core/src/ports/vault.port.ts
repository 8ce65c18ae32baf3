/** Metadata of a file kept in the vault. */
export interface VaultFile {
  readonly id: number;
  /** Hex SHA-256 of the content: files are stored by content. */
  readonly sha256: string;
  readonly name: string;
  readonly mime: string;
  readonly size: number;
  readonly createdAt: string;
}

/** Content-addressed file storage. `store` is idempotent for the same content and name. */
export interface Vault {
  store(content: Uint8Array, meta: { readonly name: string; readonly mime: string }): Promise<VaultFile>;
  file(id: number): Promise<VaultFile | undefined>;
  /** The files of these ids that exist, in no particular order. */
  files(ids: readonly number[]): Promise<VaultFile[]>;
  read(id: number): Promise<Uint8Array | undefined>;
}
