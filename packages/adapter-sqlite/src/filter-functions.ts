import type { Database } from "better-sqlite3";
import { foldCase, htmlText } from "@lineage/core";

/*
 * The SQL functions a compiled filter calls (filter-sql.ts), registered on each connection: text
 * operators fold case as the core does (foldCase: JavaScript's toLowerCase, which SQLite's
 * ASCII-only lower() does not match), and `html` comparisons strip tags as htmlText does. Both
 * run the core's own functions, so a filter means on SQLite exactly what it means in memory.
 * Deterministic: SQLite may evaluate them once per value and use them in indexes' expressions.
 */

/** `lineage_fold(value)`: the value as text (numbers as JavaScript writes them), folded; null stays null. */
export const FOLD_FUNCTION = "lineage_fold";

/** `lineage_html_text(value)`: a text without its tags; other values as they are. */
export const HTML_TEXT_FUNCTION = "lineage_html_text";

/** Registers the filter functions on a connection. */
export function registerFilterFunctions(client: Database): void {
  client.function(FOLD_FUNCTION, { deterministic: true }, (value: unknown) => (value === null ? null : foldCase(String(value))));
  client.function(HTML_TEXT_FUNCTION, { deterministic: true }, (value: unknown) => (typeof value === "string" ? htmlText(value) : value));
}
