import type { Label } from "../i18n/label.ts";

/** The four global rights of the HTTP API, one per method. */
export const HTTP_RIGHTS = ["GET", "PUT", "POST", "DELETE"] as const;
export type HttpRight = (typeof HTTP_RIGHTS)[number];

export interface Role {
  readonly id: string;
  readonly label?: Label;
}

export interface Group {
  readonly id: string;
  readonly label?: Label;
  readonly roles: readonly string[];
}

/** A user account. The password is only ever kept hashed. */
export interface Account {
  readonly id: number;
  readonly login: string;
  readonly displayName: string;
  readonly passwordHash: string | null;
  readonly roles: readonly string[];
  readonly groups: readonly string[];
  readonly locale: string;
  readonly rights: readonly HttpRight[];
  /** A disabled account authenticates by no method (password, session, token); its elements and history stay. */
  readonly disabled: boolean;
}

/** Logins are identifiers: letters, digits and `._@-`, 1 to 64 characters. */
export const LOGIN_PATTERN = /^[A-Za-z0-9._@-]{1,64}$/;

/** The role that holds every right. */
export const ADMIN_ROLE = "admin";

/** A new account, as `addUser` and credential providers give it: only the login is required (without a password it logs in by other methods only). */
export interface AddUserInput {
  readonly login: string;
  readonly password?: string | undefined;
  readonly displayName?: string | undefined;
  readonly roles?: readonly string[] | undefined;
  readonly groups?: readonly string[] | undefined;
  readonly locale?: string | undefined;
  readonly rights?: readonly HttpRight[] | undefined;
  /** Created disabled: it cannot log in until enabled. */
  readonly disabled?: boolean | undefined;
}
