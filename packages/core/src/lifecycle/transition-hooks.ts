import type { Principal } from "../accounts/principal.ts";
import type { Lifecycle, LifecycleTransition } from "./lifecycle.ts";
import type { ElementRevision, FieldValue } from "../elements/smart-element.ts";
import type { Repositories } from "../ports/store.port.ts";

/** The moments a transition calls its hooks. */
export const HOOK_PHASES = ["m0", "m1", "m2", "m3"] as const;
export type HookPhase = (typeof HOOK_PHASES)[number];

/** What a hook is told about the transition it runs for. */
export interface TransitionHookContext {
  readonly phase: HookPhase;
  readonly principal: Principal;
  /**
   * Where the hook reads and writes: during a state change (m0 checked again, m1, m2) the
   * change's transaction, so what they write commits or rolls back with it; for m0 in state
   * and transition lists, and for m3 (after the commit), the store.
   */
  readonly repos: Repositories;
  readonly lifecycle: Lifecycle;
  readonly transition: LifecycleTransition;
  /** The latest revision: before the change for m0 and m1, the new revision for m2 and m3. */
  readonly element: ElementRevision;
  readonly from: string;
  readonly to: string;
  /** The user's comment; empty when none (and for m0 in state lists). */
  readonly comment: string;
  /** The parameters, checked and typed; empty for m0 in state lists. */
  readonly parameters: Readonly<Record<string, FieldValue>>;
}

/**
 * A hook named by a bundle's transition. m0 and m1 refuse the transition by
 * returning a message; m2 and m3 return a message shown to the user. Any hook
 * may be async (call another service, read the store): m1 and m2 run inside
 * the state change's transaction (which stays open while they wait), m3 after the commit.
 */
export type TransitionHook = (context: TransitionHookContext) => string | void | null | undefined | Promise<string | void | null | undefined>;

/** Named hooks, registered in code by applications embedding the core. */
export interface TransitionHooks {
  /** Registers (or replaces) a hook; returns the registry for chaining. */
  register(name: string, hook: TransitionHook): TransitionHooks;
  get(name: string): TransitionHook | undefined;
  names(): string[];
}

/**
 * A registry of transition hooks.
 * @example
 * const hooks = createTransitionHooks({
 *   needsTitle: ({ element }) => (element.title ? undefined : "A title is needed before publishing"),
 * });
 * createPlatform({ store, hooks });
 */
export function createTransitionHooks(initial: Readonly<Record<string, TransitionHook>> = {}): TransitionHooks {
  const hooks = new Map<string, TransitionHook>(Object.entries(initial));
  const registry: TransitionHooks = {
    register(name, hook) {
      hooks.set(name, hook);
      return registry;
    },
    get: (name) => hooks.get(name),
    names: () => [...hooks.keys()],
  };
  return registry;
}

/** The first hook a transition names that is not registered, as a refusal text; null when all are there. */
export function missingHook(transition: LifecycleTransition, hooks: TransitionHooks): string | null {
  for (const phase of HOOK_PHASES) {
    const name = transition.hooks?.[phase];
    if (name && !hooks.get(name)) return `Hook "${name}" (${phase}) of transition "${transition.id}" is not registered`;
  }
  return null;
}

/** A hook's answer as text: a non-empty string, else null. */
function answer(result: unknown): string | null {
  return typeof result === "string" && result !== "" ? result : null;
}

/** Runs the transition's hook of the context's phase; null when it has none or it returns nothing. */
export async function runHook(hooks: TransitionHooks, context: TransitionHookContext): Promise<string | null> {
  const name = context.transition.hooks?.[context.phase];
  if (!name) return null;
  const hook = hooks.get(name);
  if (!hook) return `Hook "${name}" (${context.phase}) of transition "${context.transition.id}" is not registered`;
  return answer(await hook(context));
}
