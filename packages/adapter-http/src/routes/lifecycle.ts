import { Hono, type Context } from "hono";
import { LineageError, readStateChangeBody, StateChangeBodySchema, type ErrorCode, type StateChangeInput, type TransitionMessage } from "@lineage/core";
import * as v from "valibot";
import { StateSchema, describedRoute, type RouteDescription } from "../openapi/index.ts";
import { ELEMENT_PARAMS } from "../openapi/path-parameters.ts";
import { successEnvelope, type EnvelopeMessage } from "../envelope.ts";
import type { HttpEnv } from "../http-env.ts";
import { readJsonBody } from "../request-body.ts";
import { headerOf } from "../request-header.ts";
import { IF_MATCH } from "./elements.ts";
import { splitFormat } from "../resource-name.ts";
import { requestText } from "../request-text.ts";

/** The two homes of an element's lifecycle collection. */
const LIFECYCLE_BASES = ["/smart-elements/:docid/workflows", "/smart-structures/:family/smart-elements/:docid/workflows"] as const;

/** The query of the state list. */
export const StatesQuerySchema = v.object({
  allStates: v.optional(
    v.pipe(v.string(), v.description("1: every state of the lifecycle, also those no transition leads to. Empty, 0, false or no: only the next states (default)."), v.examples(["1"])),
  ),
});

/** allStates=1 (AP4 reads allState): any value but empty, 0, false or no. */
function isSet(value: string | undefined): boolean {
  return value !== undefined && !["", "0", "false", "no"].includes(value.trim().toLowerCase());
}

const TAG = "Lifecycle";
/** Errors of every lifecycle route (api-v2.md, Errors, Lifecycle (all)). */
const LIFECYCLE_ERRORS: readonly ErrorCode[] = ["CRUD0200", "CRUD0201", "CRUD0219", "CRUD0220", "CRUD0227", "ROUTES0105"];
const CHANGE_ERRORS: readonly ErrorCode[] = ["WFL0300", "CRUD0235", "CRUD0238", "WFL0310", "WFL0311", "WFL0312", "WFL0409"];
const TransitionRefSchema = v.looseObject({ uri: v.string(), label: v.string(), valid: v.optional(v.boolean()) });
const TransitionSchema = v.looseObject({
  id: v.string(),
  beginState: StateSchema,
  endState: StateSchema,
  label: v.string(),
  askComment: v.pipe(v.boolean(), v.description("A comment can be attached")),
  askAttributes: v.pipe(v.array(v.looseObject({ id: v.string(), label: v.string(), type: v.string(), multiple: v.boolean(), needed: v.boolean() })), v.description("Transition parameters")),
});

type LifecycleRoute = "states" | "state" | "changeState" | "transitions" | "transition" | "runTransition";

/** The descriptions of a home's lifecycle routes, for the OpenAPI document. */
function lifecycleDescriptions(base: string): Record<LifecycleRoute, RouteDescription> {
  const variant = base.includes(":family") ? " (family-checked)" : "";
  const params = {
    ...ELEMENT_PARAMS,
    state: v.pipe(v.string(), v.description("State identifier of the lifecycle")),
    transition: v.pipe(v.string(), v.description("Transition identifier of the lifecycle")),
  };
  const body = { required: false, content: { "application/json": StateChangeBodySchema } };
  return {
    states: {
      tag: TAG, summary: `Next possible states${variant}`, params, query: StatesQuerySchema,
      description: "States a valid transition the user may run leads to (a transition whose m0 refuses is listed with its error).",
      response: { data: v.object({ uri: v.string(), states: v.array(StateSchema) }) },
      errors: LIFECYCLE_ERRORS,
    },
    state: {
      tag: TAG, summary: `Read a state${variant}`, params,
      response: { data: v.object({ uri: v.string(), state: StateSchema }) },
      errors: [...LIFECYCLE_ERRORS, "CRUD0228"],
    },
    changeState: {
      tag: TAG, summary: `Change the state${variant}`, params, body,
      description: "Runs the transition leading to the state; with no valid transition only the admin may force the state. Creates a new revision. " +
        `${IF_MATCH} The answer carries the element's new ETag.`,
      response: { data: v.object({ uri: v.string(), state: StateSchema }) },
      errors: [...LIFECYCLE_ERRORS, "CRUD0228", ...CHANGE_ERRORS],
    },
    transitions: {
      tag: TAG, summary: `List the transitions${variant}`, params,
      response: { data: v.object({ uri: v.string(), transitions: v.array(TransitionRefSchema) }) },
      errors: LIFECYCLE_ERRORS,
    },
    transition: {
      tag: TAG, summary: `Read a transition${variant}`, params,
      response: { data: v.object({ uri: v.string(), transition: TransitionSchema }) },
      errors: [...LIFECYCLE_ERRORS, "CRUD0229"],
    },
    runTransition: {
      tag: TAG, summary: `Run a transition${variant}`, params, body,
      description: `The comment goes to the history, the parameters to the transition. Creates a new revision. ${IF_MATCH} The answer carries the element's new ETag.`,
      response: { data: v.object({ state: StateSchema }) },
      errors: [...LIFECYCLE_ERRORS, "CRUD0229", ...CHANGE_ERRORS],
    },
  };
}

/** The comment and parameters of a POST: an empty body is none, else a JSON object. */
async function readStateChange(c: Context): Promise<StateChangeInput> {
  const text = await requestText(c);
  if (!text.trim()) return {};
  const type = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (type !== "" && type !== "application/json" && !type.endsWith("+json")) throw new LineageError("API0012", [type]);
  return readStateChangeBody(await readJsonBody(c));
}

/** Messages of hooks m2 and m3 as envelope messages. */
function transitionMessages(messages: readonly TransitionMessage[]): EnvelopeMessage[] {
  return messages.map((m) => ({ type: m.level === "warning" ? "warning" : "message", code: "WORKFLOW_TRANSITION", contentText: m.text }));
}

/**
 * The Lifecycle collection (api-v2.md, Lifecycle collection) under
 * /api/v2/smart-elements/<docid>/workflows/ and its smart-structures/<family>/ variant.
 */
export function lifecycleRoutes(): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });
  for (const base of LIFECYCLE_BASES) {
    const target = (c: Context<HttpEnv>) => ({ ref: c.req.param("docid") ?? "", options: { family: c.req.param("family"), stamp: c.var.stamp } });
    const last = (c: Context<HttpEnv>, name: string) => splitFormat(c.req.param(name) ?? "").name;
    const described = lifecycleDescriptions(base);

    app.get(`${base}/states`, describedRoute(described.states, async (c) => {
      const { ref, options } = target(c);
      const query = v.parse(StatesQuerySchema, { allStates: c.req.query("allStates") ?? c.req.query("allState") });
      const all = isSet(query.allStates);
      return c.json(successEnvelope(await c.var.platform.lifecycle.listStates(c.var.principal, ref, { ...options, all })));
    }));
    app.get(`${base}/states/:state`, describedRoute(described.state, async (c) => {
      const { ref, options } = target(c);
      return c.json(successEnvelope(await c.var.platform.lifecycle.readState(c.var.principal, ref, last(c, "state"), options)));
    }));
    app.post(`${base}/states/:state`, describedRoute(described.changeState, async (c) => {
      const { ref, options } = target(c);
      const state = last(c, "state");
      const input = { ...(await readStateChange(c)), deadline: c.var.deadline, ifMatch: headerOf(c, "if-match") };
      const result = await c.var.platform.lifecycle.changeStateTo(c.var.principal, ref, state, input, options);
      c.header("ETag", result.etag);
      return c.json(successEnvelope(result.data, transitionMessages(result.messages)));
    }));
    app.get(`${base}/transitions`, describedRoute(described.transitions, async (c) => {
      const { ref, options } = target(c);
      return c.json(successEnvelope(await c.var.platform.lifecycle.listTransitions(c.var.principal, ref, options)));
    }));
    app.get(`${base}/transitions/:transition`, describedRoute(described.transition, async (c) => {
      const { ref, options } = target(c);
      return c.json(successEnvelope(await c.var.platform.lifecycle.readTransition(c.var.principal, ref, last(c, "transition"), options)));
    }));
    app.post(`${base}/transitions/:transition`, describedRoute(described.runTransition, async (c) => {
      const { ref, options } = target(c);
      const transition = last(c, "transition");
      const input = { ...(await readStateChange(c)), deadline: c.var.deadline, ifMatch: headerOf(c, "if-match") };
      const result = await c.var.platform.lifecycle.runTransition(c.var.principal, ref, transition, input, options);
      c.header("ETag", result.etag);
      return c.json(successEnvelope(result.data, transitionMessages(result.messages)));
    }));
  }
  return app;
}
