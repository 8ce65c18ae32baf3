import type { Principal } from "../accounts/principal.ts";
import type { WorkflowEngine } from "../ports/workflow-engine.port.ts";
import type { PlatformContext } from "../scope/platform-context.ts";
import {
  changeStateTo, listStates, listTransitions, readState, readTransition, runTransition,
  type LifecycleOptions, type StateAnswer, type StateChangeInput, type StateChangeResult, type StateList, type StateListOptions,
  type TransitionAnswer, type TransitionList,
} from "./lifecycle-use-cases.ts";
import type { StateObject } from "./state-view.ts";

/** The Lifecycle collection (api-v2.md): an element's states, transitions and guarded state changes. */
export interface LifecycleFacade {
  /** GET states/: the next states the principal may reach, or every state with `all`. */
  listStates(principal: Principal, ref: string, options?: StateListOptions): Promise<StateList>;
  /** GET states/<state>: one state, with the transition leading there from the current state. */
  readState(principal: Principal, ref: string, state: string, options?: LifecycleOptions): Promise<StateAnswer>;
  /** POST states/<state>: runs the transition leading there (an admin may force a state no transition leads to). */
  changeStateTo(principal: Principal, ref: string, state: string, input?: StateChangeInput, options?: LifecycleOptions): Promise<StateChangeResult<StateAnswer>>;
  /** GET transitions/: every transition of the lifecycle. */
  listTransitions(principal: Principal, ref: string, options?: LifecycleOptions): Promise<TransitionList>;
  /** GET transitions/<transition>: the transition, its ends and its parameters. */
  readTransition(principal: Principal, ref: string, transition: string, options?: LifecycleOptions): Promise<TransitionAnswer>;
  /** POST transitions/<transition>: runs it; the answer is the new state only. */
  runTransition(principal: Principal, ref: string, transition: string, input?: StateChangeInput, options?: LifecycleOptions): Promise<StateChangeResult<{ state: StateObject }>>;
}

/** The lifecycle façade over a platform's context and its workflow engine. */
export function createLifecycleFacade(context: PlatformContext, engine: WorkflowEngine): LifecycleFacade {
  const scope = (principal: Principal, options?: LifecycleOptions) => context.scope(principal, options?.stamp);
  return {
    listStates: async (p, ref, options) => listStates(await scope(p, options), engine, ref, options),
    readState: async (p, ref, state, options) => readState(await scope(p, options), engine, ref, state, options),
    changeStateTo: async (p, ref, state, input, options) => changeStateTo(await scope(p, options), engine, ref, state, input, options),
    listTransitions: async (p, ref, options) => listTransitions(await scope(p, options), engine, ref, options),
    readTransition: async (p, ref, transition, options) => readTransition(await scope(p, options), engine, ref, transition, options),
    runTransition: async (p, ref, transition, input, options) => runTransition(await scope(p, options), engine, ref, transition, input, options),
  };
}
