import type * as v from "valibot";
import { jsonPath } from "../bundle-values.ts";
import type { BundleProblem } from "./bundle-check.ts";

/** Tells one problem: the checks of each section report through it, in document order. */
export type Report = (path: string, message: string) => void;

/** Problems of valibot issues, with JSON paths and short messages; `prefix` is the path of the value checked. */
export function issueProblems(issues: readonly v.BaseIssue<unknown>[], prefix: readonly (string | number)[] = []): BundleProblem[] {
  return issues.map((issue) => {
    const keys = [...prefix, ...(issue.path ?? []).map((item) => item.key as string | number)];
    const last = issue.path?.at(-1);
    const isObject = /object/.test(issue.type);
    let message: string;
    if (isObject && last?.origin === "key" && issue.expected === "never") message = `unknown key "${String(last.key)}"`;
    else if (isObject && issue.input === undefined && last) message = `missing key "${String(last.key)}"`;
    else if (last?.origin === "key") message = `invalid name "${String(last.key)}": ${tidy(issue.message)}`;
    else message = tidy(issue.message);
    return { path: jsonPath(keys), message };
  });
}

function tidy(message: string): string {
  return message.replace(/^Invalid \w+: E/, "e");
}

/** Reports every entry whose identifier an earlier entry already has. */
export function duplicates<T>(
  entries: readonly (T | undefined)[],
  id: (entry: T) => string,
  path: string,
  key: string,
  what: string,
  report: Report,
): void {
  const first = new Map<string, number>();
  entries.forEach((entry, i) => {
    if (!entry) return;
    const value = id(entry);
    const earlier = first.get(value);
    if (earlier === undefined) first.set(value, i);
    else report(`${path}[${i}].${key}`, `duplicate ${what} "${value}" (first at ${path}[${earlier}])`);
  });
}
