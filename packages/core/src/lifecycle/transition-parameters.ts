import * as v from "valibot";
import type { LifecycleTransition } from "./lifecycle.ts";
import type { FieldValue } from "../elements/smart-element.ts";
import { LineageError, isLineageError } from "../errors/lineage-error.ts";
import { encodeFieldValue, isEmptyValue } from "../values/field-value-codec.ts";
import type { RequestScope } from "../scope/request-scope.ts";
import { loadReferences } from "../elements/element-values.ts";

/** The parts of a state change body: `{"comment": "...", "parameters": {"id": value}}`. */
export interface StateChangeBody {
  readonly comment: string | undefined;
  readonly parameters: Readonly<Record<string, unknown>> | undefined;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The JSON body of POST states/<state> and transitions/<transition> (api-v2.md, Lifecycle collection). */
export const StateChangeBodySchema = v.object({
  comment: v.optional(v.nullable(v.pipe(v.string(), v.description("Text added to the history")))),
  parameters: v.optional(
    v.nullable(
      v.pipe(
        v.record(v.string(), v.unknown()),
        v.description("Transition parameters (askAttributes of the transition) by id; typed like Smart Fields"),
      ),
    ),
  ),
});

/** What is wrong with each part of a state change body. */
const BODY_PROBLEMS: Readonly<Record<string, string>> = {
  comment: '"comment" must be a string',
  parameters: '"parameters" must be an object mapping parameter ids to values',
};

/**
 * Reads the body of POST states/<state> and transitions/<transition>: a JSON
 * object whose `comment` is a string and `parameters` an object, both optional
 * (null counts as absent). Anything else is refused with 400 API0009.
 */
export function readStateChangeBody(body: unknown): StateChangeBody {
  if (body === undefined) return { comment: undefined, parameters: undefined };
  if (!isPlainObject(body)) throw new LineageError("API0009", ["a JSON object is expected"]);
  const parsed = v.safeParse(StateChangeBodySchema, body);
  // valibot's record takes an array for an object: that one is told apart here.
  const wrong = parsed.success ? (Array.isArray(body.parameters) ? "parameters" : undefined) : String(parsed.issues[0].path?.[0]?.key ?? "");
  if (!parsed.success || wrong !== undefined) throw new LineageError("API0009", [BODY_PROBLEMS[wrong ?? ""] ?? "a JSON object is expected"]);
  return { comment: parsed.output.comment ?? undefined, parameters: parsed.output.parameters ?? undefined };
}

/**
 * Checks the parameters of a transition (its askAttributes), typed like fields:
 * an unknown id (WFL0312), a wrongly typed value (WFL0310) or a needed one
 * missing (WFL0311) is refused with 400 naming the parameter. A forced state
 * change (no transition) takes no parameters. Returns the stored form of the
 * values given.
 */
export async function checkTransitionParameters(
  transition: LifecycleTransition | null,
  raw: Readonly<Record<string, unknown>> | undefined,
  context: RequestScope,
): Promise<Record<string, FieldValue>> {
  const declared = transition?.askAttributes ?? [];
  const given = raw ?? {};
  for (const id of Object.keys(given)) {
    if (!declared.some((parameter) => parameter.id === id)) throw new LineageError("WFL0312", [transition?.id ?? "", id]);
  }
  await loadReferences(context, declared.map((parameter) => [parameter, given[parameter.id]] as const));
  const values: Record<string, FieldValue> = {};
  for (const parameter of declared) {
    let value: FieldValue;
    try {
      value = encodeFieldValue(parameter, given[parameter.id], context);
    } catch (error) {
      if (!isLineageError(error) || error.code !== "VALUE0001") throw error;
      const prefix = `Smart field "${parameter.id}": `;
      const why = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
      throw new LineageError("WFL0310", [parameter.id, why]);
    }
    if (parameter.needed && isEmptyValue(value)) throw new LineageError("WFL0311", [parameter.id]);
    if (Object.hasOwn(given, parameter.id)) values[parameter.id] = value;
  }
  return values;
}
