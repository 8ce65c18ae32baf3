/** Hashes and verifies passwords; implementations must be slow on purpose and constant-time. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
}
