import type { Principal } from "../accounts/principal.ts";
import type { Lifecycle, LifecycleTransition } from "../catalog/lifecycle.ts";
import type { ElementRevision, FieldValue } from "../element/smart-element.ts";
import type { Store } from "../ports/store.port.ts";

/** The moments a transition calls its hooks. */
export const HOOK_PHASES = ["m0", "m1", "m2", "m3"] as const;
export type HookPhase = (typeof HOOK_PHASES)[number];

/** What a hook is told about the transition it runs for. */
export interface TransitionHookContext {
  readonly phase: HookPhase;
  readonly principal: Principal;
  /** The store; hooks m1 and m2 run inside the state change's transaction, so what they write commits or rolls back with it. */
  readonly store: Store;
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
 * returning a message; m2 and m3 return a message shown to the user.
 * m0, m1 and m2 run inside the store transaction and MUST be synchronous
 * (a promise is refused with a TypeError); only m3, run after the commit, may be async.
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

/** Runs a synchronous hook (m0, m1, m2) of the transition; null when it has none or it returns nothing. */
export function runSyncHook(hooks: TransitionHooks, context: TransitionHookContext): string | null {
  const name = context.transition.hooks?.[context.phase];
  if (!name) return null;
  const hook = hooks.get(name);
  if (!hook) return `Hook "${name}" (${context.phase}) of transition "${context.transition.id}" is not registered`;
  const result = hook(context);
  if (typeof (result as { then?: unknown } | null | undefined)?.then === "function") {
    // Keep a later rejection from going unhandled: the refusal below is what counts.
    Promise.resolve(result).catch(() => {});
    throw new TypeError(`Hook "${name}" (${context.phase}) returned a promise: hooks m0, m1 and m2 run inside the store transaction and must be synchronous`);
  }
  return answer(result);
}

/** Runs hook m3 (after the commit; may be async); null when there is none or it returns nothing. */
export async function runFinalHook(hooks: TransitionHooks, context: TransitionHookContext): Promise<string | null> {
  const name = context.transition.hooks?.m3;
  const hook = name ? hooks.get(name) : undefined;
  return hook ? answer(await hook(context)) : null;
}
