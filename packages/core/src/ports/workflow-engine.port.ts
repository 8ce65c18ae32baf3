import type { Lifecycle, LifecycleTransition } from "../lifecycle/lifecycle.ts";
import type { ElementRevision, FieldValue } from "../elements/smart-element.ts";
import type { RequestScope } from "../scope/request-scope.ts";
import type { Deadline } from "./store.port.ts";

/** An element under its lifecycle, seen by the principal of a request scope. */
export interface WorkflowSubject {
  readonly scope: RequestScope;
  /** The latest revision of the element. */
  readonly element: ElementRevision;
  readonly lifecycle: Lifecycle;
}

/** One transition of the lifecycle and what the principal may do with it now. */
export interface TransitionOption {
  readonly transition: LifecycleTransition;
  /** The transition leaves the element's current state. */
  readonly valid: boolean;
  /** The principal holds one of its grants (admin always does) and may edit the element. */
  readonly authorized: boolean;
}

/** A transition from the current state, with the refusal of its hook m0 (or a hook not registered). */
export interface CheckedTransition extends TransitionOption {
  readonly error: string | null;
}

/** What to reach: a transition to run, or a state to go to (through the transition leading there). */
export type StateChangeTarget = { readonly transition: string } | { readonly state: string };

export interface StateChangeRequest {
  readonly target: StateChangeTarget;
  /** Text for the history. */
  readonly comment?: string | undefined;
  /** Values of the transition's parameters (askAttributes), by parameter id, typed like fields. */
  readonly parameters?: Readonly<Record<string, unknown>> | undefined;
  /** The request's time limit: the change is not committed once it has expired. */
  readonly deadline?: Deadline | undefined;
  /**
   * The request's If-Match header: an engine refuses the change (412 CRUD0238, `checkIfMatch`)
   * unless it names the element's current ETag, checked on the revision its transaction reads.
   */
  readonly ifMatch?: string | undefined;
}

/** A message for the user from hooks m2 and m3; `warning` when m3 failed after the change was stored. */
export interface TransitionMessage {
  readonly level: "message" | "warning";
  readonly text: string;
}

export interface StateChangeOutcome {
  /** The new latest revision, in the new state. */
  readonly revision: ElementRevision;
  /** The revision left behind, now fixed. */
  readonly previous: ElementRevision;
  /** The transition run; null when an admin forced a state no valid transition leads to. */
  readonly transition: LifecycleTransition | null;
  readonly parameters: Readonly<Record<string, FieldValue>>;
  readonly messages: readonly TransitionMessage[];
}

/**
 * The rules of lifecycles: which transitions a principal may run from an
 * element's current state, and the guarded state change itself. The default
 * implementation is `createLifecycleEngine` (lifecycle/lifecycle-engine.ts).
 */
export interface WorkflowEngine {
  /** Every transition of the lifecycle, in definition order: valid from the current state? may the principal run it? */
  transitions(subject: WorkflowSubject): Promise<TransitionOption[]>;
  /**
   * The transition leading from the current state to `state` (one the principal
   * may run first), m0 asked; undefined when no valid transition leads there.
   */
  transitionTo(subject: WorkflowSubject, state: string): Promise<CheckedTransition | undefined>;
  /** The states offered next: a valid transition leads there and the principal may run it (m0's refusal in `error`). */
  nextStates(subject: WorkflowSubject): Promise<CheckedTransition[]>;
  /**
   * Runs a transition (or goes to a state) in one store transaction: the element
   * is read again, checked, hook m1 asked, a new revision made in the new state,
   * the history written and hook m2 run; hook m3 runs after the commit.
   */
  changeState(subject: WorkflowSubject, request: StateChangeRequest): Promise<StateChangeOutcome>;
}
