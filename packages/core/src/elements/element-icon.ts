import type { SmartStructure } from "../structures/smart-structure.ts";
import { parseFileValue } from "../values/file-value.ts";

/** The icon of a structure that names none, shipped with the built-in assets as the original ships its doc.png. */
export const DEFAULT_ICON = "doc.png";

/**
 * The icon of accounts (in account values, `createdBy`...), shipped with the built-in assets under
 * the name of the original's icon of user accounts (the icon of its IUSER structure).
 */
export const ACCOUNT_ICON = "se-iuser.png";

/** The URL of the accounts' icon at a size (the original shows 14 pixels in values, 24 in properties). */
export function accountIconUri(size: number): string {
  return `/api/v2/images/assets/sizes/${size}x${size}c/${ACCOUNT_ICON}`;
}

/**
 * The icon URL of an element: its structure's icon, resized (24 pixels; docid values show 14), else
 * the default icon: a client never gets null. An icon that is a vault image (a file value
 * `mime|id|name`) is served by the recorded route; a file name, from the Images directory.
 */
export function iconUri(structure: SmartStructure | undefined, size = 24): string {
  const icon = structure?.icon || DEFAULT_ICON;
  const vaultIcon = parseFileValue(icon);
  if (vaultIcon) return `/api/v2/images/recorded/sizes/${size}x${size}c/${vaultIcon.vaultId}.png`;
  return `/api/v2/images/assets/sizes/${size}x${size}c/${icon.split("/").map(encodeURIComponent).join("/")}`;
}
