// Prints the scrypt hash of a password for the users file: pnpm hash-password 'secret'
import { createScryptPasswordHasher } from "@lineage/core";

const password = process.argv[2];
if (!password) {
  console.error("usage: pnpm hash-password PASSWORD");
  process.exit(2);
}
console.log(await createScryptPasswordHasher().hash(password));
