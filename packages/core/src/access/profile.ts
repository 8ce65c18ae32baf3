/**
 * Who may view, edit and delete the elements of the structures that name this profile, and who may
 * create them. Each grant lists entries: `role:ID`, `group:ID`, `user:LOGIN`, `right:METHOD` (the
 * accounts holding that global HTTP API right) and `owner` (each element's owner, for that element).
 */
export interface Profile {
  readonly name: string;
  readonly grants: Readonly<Partial<Record<ProfileGrant, readonly string[]>>>;
}

export const PERMISSIONS = ["view", "edit", "delete"] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** What a profile grants: the permissions on elements, and `create` (new elements through the API). */
export type ProfileGrant = Permission | "create";

/** The grant entry that designates each element's owner, for that element. */
export const OWNER_GRANT = "owner";
