import { findState } from "./lifecycle.ts";
import { LineageError } from "../errors/lineage-error.ts";
import { translate } from "../i18n/label.ts";
import { etagFor } from "../elements/if-match.ts";
import { locateElement, type LocateRules } from "../elements/locate-element.ts";
import type { RequestScope } from "../scope/request-scope.ts";
import type { Stamped } from "../scope/definitions.ts";
import type { CheckedTransition, StateChangeRequest, TransitionMessage, WorkflowEngine, WorkflowSubject } from "../ports/workflow-engine.port.ts";
import { currentStateOf } from "./lifecycle-engine.ts";
import {
  describeTransition, lifecycleUris, stateListItem, stateObject, stateReading, transitionLabel,
  type StateListItem, type StateObject, type StateReading, type TransitionDescription,
} from "./state-view.ts";

/** The errors of the Lifecycle collection (api-v2.md, Errors): CRUD codes, view permission. */
export const LIFECYCLE_RULES: LocateRules = {
  notFound: "CRUD0200", deleted: "CRUD0219", unknownFamily: "ROUTES0105", notOfFamily: "CRUD0220",
  forbidden: "CRUD0201", permission: "view",
};

export interface LifecycleOptions extends Stamped {
  /** The smart-structures/<family>/ variant: the element must be of this structure. */
  readonly family?: string | undefined;
}

export interface StateListOptions extends LifecycleOptions {
  /** allStates=1: every state of the lifecycle, not only the next ones. */
  readonly all?: boolean;
}

/** The comment and parameters of POST states/<state> and transitions/<transition>. */
export type StateChangeInput = Omit<StateChangeRequest, "target">;

/** The answer of a state change: the response data, the messages of hooks m2 and m3, and the element's new ETag. */
export interface StateChangeResult<T> {
  readonly data: T;
  readonly messages: readonly TransitionMessage[];
  /** What GET of the element now answers the principal: the If-Match of a next change. */
  readonly etag: string;
}

/** The element named `ref` under its lifecycle: CRUD0200, CRUD0219, CRUD0220, CRUD0201, then 404 CRUD0227 without a lifecycle. */
export async function locateSubject(scope: RequestScope, ref: string, options: LifecycleOptions = {}): Promise<WorkflowSubject> {
  const element = await locateElement(scope, ref, LIFECYCLE_RULES, options.family);
  const name = scope.structure(element.structure)?.lifecycle;
  const lifecycle = name ? scope.lifecycle(name) : undefined;
  if (!lifecycle) throw new LineageError("CRUD0227", [ref]);
  return { scope, element, lifecycle };
}

const title = (subject: WorkflowSubject) => translate(subject.lifecycle.label ?? subject.lifecycle.name, subject.scope.locale);

function knownState(subject: WorkflowSubject, state: string): void {
  if (!findState(subject.lifecycle, state)) throw new LineageError("CRUD0228", [state, title(subject), subject.lifecycle.name]);
}

/** The states of GET states/. */
export interface StateList {
  readonly uri: string;
  readonly states: StateListItem[];
}

/** One state, as GET and POST states/<state> answer it. */
export interface StateAnswer {
  readonly uri: string;
  readonly state: StateReading;
}

/** The transitions of GET transitions/: `valid` when one leaves the current state. */
export interface TransitionList {
  readonly uri: string;
  readonly transitions: { readonly id: string; readonly uri: string; readonly label: string; readonly valid: boolean }[];
}

/** One transition, as GET transitions/<transition> answers it. */
export interface TransitionAnswer {
  readonly uri: string;
  readonly transition: TransitionDescription;
}

/** GET states/: the next states the principal may reach, or every state with `all`. */
export async function listStates(scope: RequestScope, engine: WorkflowEngine, ref: string, options: StateListOptions = {}): Promise<StateList> {
  const subject = await locateSubject(scope, ref, options);
  const uris = lifecycleUris(ref, options.family);
  const current = currentStateOf(subject);
  const item = (id: string, via: CheckedTransition | undefined) => stateListItem(subject.lifecycle, id, current, via, uris, scope.locale);
  const states: StateListItem[] = [];
  if (options.all) {
    // One state after the other: hooks m0 are asked in the lifecycle's order, as before.
    for (const state of subject.lifecycle.states) states.push(item(state.id, await engine.transitionTo(subject, state.id)));
  } else {
    for (const via of await engine.nextStates(subject)) states.push(item(via.transition.to, via));
  }
  return { uri: uris.states, states };
}

/** GET states/<state>: one state, with the transition leading there from the current state. */
export async function readState(
  scope: RequestScope, engine: WorkflowEngine, ref: string, state: string, options: LifecycleOptions = {},
): Promise<StateAnswer> {
  const subject = await locateSubject(scope, ref, options);
  knownState(subject, state);
  const uris = lifecycleUris(ref, options.family);
  const via = (await engine.transitions(subject)).filter((o) => o.valid && o.transition.to === state);
  const chosen = via.find((o) => o.authorized) ?? via[0];
  return { uri: uris.state(state), state: stateReading(subject.lifecycle, state, currentStateOf(subject), chosen, uris, scope.locale) };
}

/** POST states/<state>: runs the transition leading there (an admin may force a state no transition leads to). */
export async function changeStateTo(
  scope: RequestScope, engine: WorkflowEngine, ref: string, state: string, input: StateChangeInput = {}, options: LifecycleOptions = {},
): Promise<StateChangeResult<StateAnswer>> {
  const subject = await locateSubject(scope, ref, options);
  const outcome = await engine.changeState(subject, { ...input, target: { state } });
  const after: WorkflowSubject = { ...subject, element: outcome.revision };
  const uris = lifecycleUris(ref, options.family);
  const via = (await engine.transitions(after)).find((o) => o.valid && o.transition.to === state);
  return {
    data: { uri: uris.state(state), state: stateReading(subject.lifecycle, state, currentStateOf(after), via, uris, scope.locale) },
    messages: outcome.messages,
    etag: await etagFor(scope, outcome.revision),
  };
}

/** GET transitions/: every transition of the lifecycle; `valid` when it leaves the current state (rights not checked). */
export async function listTransitions(scope: RequestScope, engine: WorkflowEngine, ref: string, options: LifecycleOptions = {}): Promise<TransitionList> {
  const subject = await locateSubject(scope, ref, options);
  const uris = lifecycleUris(ref, options.family);
  return {
    uri: uris.transitions,
    transitions: (await engine.transitions(subject)).map((o) => ({
      id: o.transition.id, uri: uris.transition(o.transition.id), label: transitionLabel(o.transition, scope.locale), valid: o.valid,
    })),
  };
}

/** GET transitions/<transition>: the transition, its ends and its parameters. */
export async function readTransition(
  scope: RequestScope, engine: WorkflowEngine, ref: string, id: string, options: LifecycleOptions = {},
): Promise<TransitionAnswer> {
  const subject = await locateSubject(scope, ref, options);
  const found = (await engine.transitions(subject)).find((o) => o.transition.id === id);
  if (!found) throw new LineageError("CRUD0229", [id, title(subject), subject.lifecycle.name]);
  const uris = lifecycleUris(ref, options.family);
  return { uri: uris.transition(id), transition: describeTransition(subject.lifecycle, found.transition, currentStateOf(subject), scope.locale) };
}

/** POST transitions/<transition>: runs it; the answer is the new state only. */
export async function runTransition(
  scope: RequestScope, engine: WorkflowEngine, ref: string, id: string, input: StateChangeInput = {}, options: LifecycleOptions = {},
): Promise<StateChangeResult<{ state: StateObject }>> {
  const subject = await locateSubject(scope, ref, options);
  const outcome = await engine.changeState(subject, { ...input, target: { transition: id } });
  const state = outcome.revision.state ?? subject.lifecycle.firstState;
  return { data: { state: stateObject(subject.lifecycle, state, state, scope.locale) }, messages: outcome.messages, etag: await etagFor(scope, outcome.revision) };
}
