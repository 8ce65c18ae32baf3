/** Who may view, edit and delete the elements of the structures that name this profile. */
export interface Profile {
  readonly name: string;
  readonly grants: Readonly<Partial<Record<Permission, readonly string[]>>>;
}

export const PERMISSIONS = ["view", "edit", "delete"] as const;
export type Permission = (typeof PERMISSIONS)[number];
