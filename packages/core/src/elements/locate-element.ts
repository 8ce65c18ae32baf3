import type { Permission } from "../access/profile.ts";
import type { ErrorCode } from "../errors/error-codes.ts";
import { LineageError } from "../errors/lineage-error.ts";
import { trashUri } from "./element-uri.ts";
import type { ElementRevision } from "./smart-element.ts";
import type { RequestScope } from "../scope/request-scope.ts";

/** The error codes an operation answers with when an element cannot be used (they differ per route in the spec). */
export interface LocateRules {
  readonly notFound: ErrorCode;
  /** null: a deleted element is allowed. */
  readonly deleted: ErrorCode | null;
  readonly unknownFamily: ErrorCode;
  readonly notOfFamily: ErrorCode;
  readonly forbidden: ErrorCode;
  readonly permission: Permission;
  readonly forbiddenMessage?: string;
}

export const CONSULT_RULES: LocateRules = {
  notFound: "ROUTES0100", deleted: "ROUTES0102", unknownFamily: "ROUTES0105", notOfFamily: "ROUTES0104",
  forbidden: "ROUTES0101", permission: "view", forbiddenMessage: "Document access not granted",
};

export const REVISIONS_RULES: LocateRules = {
  notFound: "CRUD0200", deleted: "CRUD0219", unknownFamily: "ROUTES0105", notOfFamily: "CRUD0220",
  forbidden: "CRUD0201", permission: "view",
};

export const HISTORY_RULES: LocateRules = { ...REVISIONS_RULES, deleted: null };

/** The latest revision of `ref`, checked against the operation's rules and optional family. */
export async function locateElement(scope: RequestScope, ref: string, rules: LocateRules, family?: string): Promise<ElementRevision> {
  const element = await scope.find(ref);
  if (!element) throw new LineageError(rules.notFound, [ref]);
  if (rules.deleted && element.status === "deleted") {
    throw new LineageError(rules.deleted, [ref], { userMessage: `Document "${ref}" is deleted`, uri: trashUri(element.initid) });
  }
  if (family !== undefined) {
    if (!scope.structure(family)) throw new LineageError(rules.unknownFamily, [family]);
    // An element of a structure that extends the family is of the family too, as the original's classes are.
    if (!scope.definitions.withDescendants(family).includes(element.structure)) throw new LineageError(rules.notOfFamily, [ref, family]);
  }
  if (!scope.permissions(element).has(rules.permission)) {
    const options = rules.forbiddenMessage ? { userMessage: rules.forbiddenMessage } : {};
    throw new LineageError(rules.forbidden, [ref, "Access not granted"], options);
  }
  return element;
}

/** A deleted element for the trash routes: 404 ROUTES0100 when unknown, ROUTES0112 when not deleted. */
export async function locateDeleted(scope: RequestScope, ref: string, permission: Permission = "view"): Promise<ElementRevision> {
  const element = await scope.find(ref);
  if (!element) throw new LineageError("ROUTES0100", [ref], { userMessage: `Deleted document "${ref}" not found` });
  if (element.status !== "deleted") throw new LineageError("ROUTES0112", [ref], { userMessage: `Document "${ref}" is not in the trash` });
  if (!scope.permissions(element).has(permission)) {
    throw new LineageError("ROUTES0101", [ref, "Access not granted"], { userMessage: "Document access not granted" });
  }
  return element;
}
