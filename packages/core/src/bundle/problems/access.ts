import { fieldIndex } from "../../structures/smart-structure.ts";
import { pathStep } from "../bundle-values.ts";
import { checkGrant } from "./accounts.ts";
import type { BundleView } from "./bundle-view.ts";
import type { Known } from "./known-names.ts";
import { duplicates, type Report } from "./problem-report.ts";
import { isSystemName } from "../../queries/system-structures.ts";

/** Profiles: unique names, and grants that name known roles, groups and users, global rights, or each element's owner. */
export function checkProfiles(view: BundleView, known: Known, report: Report): void {
  view.profiles.forEach((profile, i) => {
    if (!profile) return;
    if (isSystemName("profile", profile.name)) report(`$.profiles[${i}].name`, `"${profile.name}" is the system structures' profile: it cannot be given again`);
    for (const [permission, entries] of Object.entries(profile.grants ?? {})) {
      entries?.forEach((entry, k) => checkGrant(entry, `$.profiles[${i}].grants.${permission}[${k}]`, known, report, { owner: true }));
    }
  });
  duplicates(view.profiles, (p) => p.name, "$.profiles", "name", "profile", report);
}

/** Field accesses: unique names, known grantees, and fields that a structure naming the field access has. */
export function checkFieldAccesses(view: BundleView, known: Known, report: Report): void {
  duplicates(view.fieldAccesses, (a) => a.name, "$.fieldAccesses", "name", "field access", report);
  view.fieldAccesses.forEach((access, i) => {
    if (!access) return;
    const users = known.fieldAccessUsers(access.name);
    // Frames and tabs too: a layer that grants a set lets its fields have the rights they are granted.
    const fields = new Set(users.flatMap((structure) => [...fieldIndex(structure).keys(), ...(structure.fieldSets ?? []).map((set) => set.id)]));
    access.layers.forEach((layer, k) => {
      const path = `$.fieldAccesses[${i}].layers[${k}]`;
      checkGrant(layer.grant, `${path}.grant`, known, report);
      // A field access no structure names yet may name any field: the structures come later.
      if (users.length === 0) return;
      for (const id of Object.keys(layer.fields)) {
        if (!fields.has(id)) report(`${path}.fields${pathStep(id)}`, `no structure with field access "${access.name}" has a field "${id}"`);
      }
    });
  });
}
