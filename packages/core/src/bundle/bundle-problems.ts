import * as v from "valibot";
import { BundleSchema, type Bundle } from "./bundle.schema.ts";
import { bundleSourceOf, type BundleSource } from "./bundle-source.ts";
import type { BundleCheck, BundleCheckOptions, BundleProblem, SourceCheck } from "./problems/bundle-check.ts";
import { checkAccounts } from "./problems/accounts.ts";
import { checkEnumerates } from "./problems/enumerates.ts";
import { checkFieldAccesses, checkProfiles } from "./problems/access.ts";
import { checkLifecycles } from "./problems/lifecycles.ts";
import { checkStructures } from "./problems/structures.ts";
import { checkStoredDescendants } from "./problems/structure-descendants.ts";
import { checkSearchDomains } from "./problems/search-domains.ts";
import { checkDashboards } from "./problems/dashboards.ts";
import { checkElements } from "./problems/elements.ts";
import { viewOf, type BundleView } from "./problems/bundle-view.ts";
import { readElements } from "./problems/first-read.ts";
import { knownNames, storeFacts, type Known } from "./problems/known-names.ts";
import { issueProblems, type Report } from "./problems/problem-report.ts";

/**
 * Checks a bundle without writing anything: its shape (BundleSchema), then
 * names, references, files and element values. Every problem is collected;
 * parts whose shape is wrong are left out of the later checks only.
 * @example
 * const { problems } = await checkBundle(JSON.parse(text), { store, readFile });
 * for (const p of problems) console.log(`${p.path}: ${p.message}`);
 */
export async function checkBundle(input: unknown, options: BundleCheckOptions): Promise<BundleCheck> {
  const { definitions, problems } = await checkBundleSource(bundleSourceOf(input), options);
  // The schema only validates (no transform): a valid input is its own output.
  return { bundle: definitions && (input as Bundle), problems };
}

/**
 * checkBundle over a source, reading it twice with a batch of elements in memory at a time: the
 * first read takes the definitions and checks each element's shape and names, the second
 * checks the element values against the definitions, wherever they stand in the file.
 */
export async function checkBundleSource(source: BundleSource, options: BundleCheckOptions): Promise<SourceCheck> {
  const read = await readElements(source, options.onProgress);
  if (read.root) {
    // valibot takes an array for an object with no keys.
    const problems = Array.isArray(read.root.value)
      ? [{ path: "$", message: "a bundle is a JSON object" }]
      : issueProblems(v.safeParse(BundleSchema, read.root.value).issues ?? []);
    return { definitions: undefined, problems, names: read.names, elementCount: 0 };
  }
  const parsed = v.safeParse(BundleSchema, read.sections);
  const issues = parsed.success ? [] : parsed.issues;
  const schema = issueProblems(issues);
  const view = viewOf(read.sections, issues, read.names);
  const facts = await storeFacts(view, options.store, read.owners);
  const known = knownNames(view, facts);
  const { head, tail } = definitionProblems(view, known);
  const elements = read.count > 0 && !view.rootInvalid ? await checkElements(source, read, view, known, options, facts) : [];
  // Problems of the elements' shape stand where `elements` stands among the schema's keys.
  const after = schema.filter((problem) => SCHEMA_KEYS_AFTER_ELEMENTS.some((key) => problem.path.startsWith(`$.${key}`)) || isUnknownRootKey(problem));
  const before = schema.filter((problem) => !after.includes(problem));
  // checkElements tells how many problems of the elements, shape or values, were left out.
  const problems = [...before, ...read.schemaProblems, ...after, ...head, ...elements, ...tail];
  return {
    definitions: problems.length === 0 ? (read.sections as Bundle) : undefined, problems, names: read.names, elementCount: read.count, folders: read.folders,
  };
}

/** The root keys the schema lists after `elements`: their problems come after those of the elements' shape. */
const SCHEMA_KEYS_AFTER_ELEMENTS = ["searchDomains", "dashboards"] as const;

const isUnknownRootKey = (problem: BundleProblem) => /^\$(\.[A-Za-z_$][A-Za-z0-9_$]*|\[".*"\])$/.test(problem.path) && problem.message.startsWith("unknown key");

/** The problems of the definitions: `head` those of the sections the schema lists before the elements, `tail` after. */
function definitionProblems(view: BundleView, known: Known): { head: BundleProblem[]; tail: BundleProblem[] } {
  const head: BundleProblem[] = [];
  const tail: BundleProblem[] = [];
  if (view.rootInvalid) return { head, tail };
  let problems = head;
  const report: Report = (path, message) => problems.push({ path, message });
  checkAccounts(view, known, report);
  checkEnumerates(view, report);
  checkProfiles(view, known, report);
  checkFieldAccesses(view, known, report);
  checkLifecycles(view, known, report);
  checkStructures(view, known, report);
  checkStoredDescendants(view, known, report);
  problems = tail;
  checkSearchDomains(view, known, report);
  checkDashboards(view, known, report);
  return { head, tail };
}
