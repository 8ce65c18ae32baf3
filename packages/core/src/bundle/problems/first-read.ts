import * as v from "valibot";
import { ElementSchema } from "../bundle.schema.ts";
import { BundleNames } from "../bundle-names.ts";
import type { BundleSource } from "../bundle-source.ts";
import { elementImportKey } from "../bundle-values.ts";
import type { ImportProgressListener } from "../import-progress.ts";
import { MAX_ELEMENT_PROBLEMS, type BundleProblem } from "./bundle-check.ts";
import { asObject } from "./bundle-view.ts";
import { issueProblems } from "./problem-report.ts";

/** What the first read of a source gives. */
export interface ElementsRead {
  /** Every root key but an `elements` list. */
  readonly sections: Record<string, unknown>;
  /** Set when the bundle is not a JSON object. */
  readonly root: { readonly value: unknown } | undefined;
  readonly count: number;
  readonly names: BundleNames;
  /** Entries whose shape is wrong: left out of the later checks. */
  readonly invalid: ReadonlySet<number>;
  /** Problems found on the first read (duplicate names and contents), told with their entry's other problems. */
  readonly early: ReadonlyMap<number, readonly BundleProblem[]>;
  readonly schemaProblems: readonly BundleProblem[];
  /** Schema problems past MAX_ELEMENT_PROBLEMS. */
  readonly omitted: number;
  /** Logins the entries name as owners. */
  readonly owners: ReadonlySet<string>;
  /** True when some entry gives a folder's content. */
  readonly folders: boolean;
}

/** The first read of a source: its definitions, and each element's names and shape. */
export async function readElements(source: BundleSource, onProgress: ImportProgressListener | undefined): Promise<ElementsRead> {
  const sections: Record<string, unknown> = {};
  let root: ElementsRead["root"];
  const names = new BundleNames();
  const invalid = new Set<number>();
  const early = new Map<number, BundleProblem[]>();
  const schemaProblems: BundleProblem[] = [];
  const importKeys = new Map<string, number>();
  const owners = new Set<string>();
  let folders = false;
  let count = 0;
  let omitted = 0;
  const tell = (index: number, problem: BundleProblem) => {
    const list = early.get(index);
    if (list) list.push(problem);
    else early.set(index, [problem]);
  };
  for await (const part of source.read()) {
    if (part.kind === "root") root = { value: part.value };
    else if (part.kind === "section") sections[part.key] = part.value;
    else {
      part.entries.forEach((raw, k) => {
        const index = part.first + k;
        const { name, structure } = asObject(raw);
        if (typeof name === "string") {
          const first = names.add(name, index, typeof structure === "string" ? structure : "");
          if (first !== undefined) tell(index, { path: `$.elements[${index}].name`, message: `duplicate logical name "${name}" (first at $.elements[${first}])` });
        }
        const parsed = v.safeParse(ElementSchema, raw);
        if (!parsed.success) {
          invalid.add(index);
          const problems = issueProblems(parsed.issues, ["elements", index]);
          const room = Math.max(0, MAX_ELEMENT_PROBLEMS - schemaProblems.length);
          schemaProblems.push(...problems.slice(0, room));
          omitted += problems.length - Math.min(room, problems.length);
          return;
        }
        const element = parsed.output;
        if (element.owner !== undefined) owners.add(element.owner);
        if (element.content !== undefined) folders = true;
        if (element.name === undefined) {
          const key = elementImportKey(element);
          const earlier = importKeys.get(key);
          if (earlier === undefined) importKeys.set(key, index);
          else tell(index, { path: `$.elements[${index}]`, message: `same structure, owner and values as $.elements[${earlier}]: give one of them a name` });
        }
      });
      count = Math.max(count, part.first + part.entries.length);
      onProgress?.({ phase: "reading", done: count });
    }
  }
  return { sections, root, count, names, invalid, early, schemaProblems, omitted, owners, folders };
}
