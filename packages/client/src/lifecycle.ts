import { elementPath, segment } from "./path-segment.ts";
import type { AnyStructure, StructureType } from "./structure-type.ts";
import type { Transport } from "./transport.ts";

/** A state of an element's lifecycle (docs/api.md, Lifecycle). */
export interface LifecycleState<State extends string = string, Transition extends string = string> {
  readonly id: State;
  readonly isCurrentState: boolean;
  readonly label: string;
  readonly activity: string | null;
  readonly displayValue: string;
  readonly color: string;
  readonly uri?: string;
  /** The transition that leads to it from the current state, null when none does. */
  readonly transition?: {
    readonly uri: string;
    readonly label: string;
    readonly id?: Transition;
    /** What the transition's m0 hook says against it. */
    readonly error?: string | null;
    /** True when the caller may run it. */
    readonly authorized?: boolean;
  } | null;
}

/** A transition of the list: valid when it leaves from the current state (the caller's rights are not checked). */
export interface TransitionItem<Transition extends string = string> {
  readonly id: Transition;
  readonly uri: string;
  readonly label: string;
  readonly valid: boolean;
}

/** A parameter a transition asks for. */
export interface TransitionParameter {
  readonly id: string;
  readonly label: string;
  readonly type: string;
  readonly multiple: boolean;
  readonly needed: boolean;
  readonly [more: string]: unknown;
}

/** One transition: where it leads from and to, and what it asks. */
export interface Transition<State extends string = string, Id extends string = string> {
  readonly id: Id;
  readonly label: string;
  readonly beginState: LifecycleState<State>;
  readonly endState: LifecycleState<State>;
  readonly askComment: boolean;
  readonly askAttributes: readonly TransitionParameter[];
}

/** What a state change or a transition takes: a comment for the history, and the transition's parameters. */
export interface TransitionInput {
  readonly comment?: string;
  readonly parameters?: Readonly<Record<string, unknown>>;
  /** Under this structure's collection (family-checked). */
  readonly structure?: string;
  readonly signal?: AbortSignal;
}

/** Lifecycles: an element's states and transitions, changing its state. */
export interface LifecycleApi {
  /** GET …/workflows/states: the next states (all of them with `allStates`). */
  states<S extends StructureType = AnyStructure>(ref: string | number, options?: { readonly allStates?: boolean; readonly structure?: string; readonly signal?: AbortSignal }): Promise<LifecycleState<S["state"], S["transition"]>[]>;
  /** GET …/workflows/states/<state>. */
  state<S extends StructureType = AnyStructure>(ref: string | number, state: S["state"], options?: { readonly structure?: string; readonly signal?: AbortSignal }): Promise<LifecycleState<S["state"], S["transition"]>>;
  /** POST …/workflows/states/<state>: runs the transition that leads there; the new state. */
  changeState<S extends StructureType = AnyStructure>(ref: string | number, state: S["state"], input?: TransitionInput): Promise<LifecycleState<S["state"], S["transition"]>>;
  /** GET …/workflows/transitions. */
  transitions<S extends StructureType = AnyStructure>(ref: string | number, options?: { readonly structure?: string; readonly signal?: AbortSignal }): Promise<TransitionItem<S["transition"]>[]>;
  /** GET …/workflows/transitions/<transition>. */
  transition<S extends StructureType = AnyStructure>(ref: string | number, transition: S["transition"], options?: { readonly structure?: string; readonly signal?: AbortSignal }): Promise<Transition<S["state"], S["transition"]>>;
  /** POST …/workflows/transitions/<transition>: runs it; the new state. */
  run<S extends StructureType = AnyStructure>(ref: string | number, transition: S["transition"], input?: TransitionInput): Promise<LifecycleState<S["state"], S["transition"]>>;
}

/** The lifecycle area over a transport. */
export function lifecycleApi(transport: Transport): LifecycleApi {
  const workflows = (ref: string | number, structure: string | undefined) => `${elementPath(ref, structure)}/workflows`;
  const body = (input: TransitionInput) => ({ comment: input.comment ?? "", parameters: input.parameters ?? {} });
  return {
    async states(ref, options = {}) {
      const { data } = await transport.json<{ states: LifecycleState[] }>({
        method: "GET", path: `${workflows(ref, options.structure)}/states`, query: { allStates: options.allStates ? 1 : undefined }, signal: options.signal,
      });
      return data.states as never;
    },
    async state(ref, state, options = {}) {
      const { data } = await transport.json<{ state: LifecycleState }>({ method: "GET", path: `${workflows(ref, options.structure)}/states/${segment(state)}`, signal: options.signal });
      return data.state as never;
    },
    async changeState(ref, state, input = {}) {
      const { data } = await transport.json<{ state: LifecycleState }>({
        method: "POST", path: `${workflows(ref, input.structure)}/states/${segment(state)}`, json: body(input), signal: input.signal,
      });
      return data.state as never;
    },
    async transitions(ref, options = {}) {
      const { data } = await transport.json<{ transitions: TransitionItem[] }>({ method: "GET", path: `${workflows(ref, options.structure)}/transitions`, signal: options.signal });
      return data.transitions as never;
    },
    async transition(ref, transition, options = {}) {
      const { data } = await transport.json<{ transition: Transition }>({ method: "GET", path: `${workflows(ref, options.structure)}/transitions/${segment(transition)}`, signal: options.signal });
      return data.transition as never;
    },
    async run(ref, transition, input = {}) {
      const { data } = await transport.json<{ state: LifecycleState }>({
        method: "POST", path: `${workflows(ref, input.structure)}/transitions/${segment(transition)}`, json: body(input), signal: input.signal,
      });
      return data.state as never;
    },
  };
}
