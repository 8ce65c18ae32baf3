/** Entries of one kind an import created, updated or left as they were. */
export interface ImportCounts {
  created: number;
  updated: number;
  unchanged: number;
}

/** The elements' counts, and how many of the updated ones had been changed since the import before (by an account, not an import). */
export interface ElementImportCounts extends ImportCounts {
  overwritten: number;
}

/** What an import did, per kind. */
export interface ImportReport {
  readonly roles: ImportCounts;
  readonly groups: ImportCounts;
  readonly users: ImportCounts;
  readonly enumerates: ImportCounts;
  readonly profiles: ImportCounts;
  readonly fieldAccesses: ImportCounts;
  readonly lifecycles: ImportCounts;
  readonly structures: ImportCounts;
  readonly elements: ElementImportCounts;
  readonly searchDomains: ImportCounts;
  readonly dashboards: ImportCounts;
}

/**
 * One line per kind, for the command line: `elements: 3 created, 1 updated, 12 unchanged`; the
 * elements' line says how many updates overwrote a change made since the import before.
 */
export function formatImportReport(report: ImportReport): string {
  return Object.entries(report)
    .map(([kind, counts]: [string, Partial<ElementImportCounts> & { accepted?: number }]) =>
      counts.accepted !== undefined
        ? `${kind}: ${counts.accepted} accepted`
        : `${kind}: ${counts.created ?? 0} created, ${counts.updated ?? 0} updated, ${counts.unchanged ?? 0} unchanged` +
          (counts.overwritten ? ` (${counts.overwritten} of them changed since the last import: those changes are overwritten)` : ""))
    .join("\n");
}

/** The warning an import that overwrote changes deserves, naming the bundle; undefined when it overwrote none. */
export function overwriteWarning(bundle: string, report: ImportReport): string | undefined {
  const n = report.elements.overwritten;
  if (n === 0) return undefined;
  return `${bundle}: ${n} element${n > 1 ? "s" : ""} changed since the last import ${n > 1 ? "were" : "was"} overwritten with the bundle's values`;
}
