export * from "./node-scrypt-password-hasher.ts";
