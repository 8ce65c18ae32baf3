import type { Label } from "../i18n/label.ts";
import type { FieldType } from "../structures/smart-field.ts";

export interface LifecycleState {
  readonly id: string;
  readonly label?: Label;
  readonly activity?: Label;
  readonly color?: string;
  /** The profile an element takes when it enters this state (unless it has its own). */
  readonly profile?: string;
}

/** A parameter a transition asks for, typed like a field. */
export interface TransitionParameter {
  readonly id: string;
  readonly type: FieldType;
  readonly label?: Label;
  readonly needed?: boolean;
  readonly multiple?: boolean;
  readonly enum?: string;
  readonly options?: Readonly<Record<string, string>>;
}

export interface LifecycleTransition {
  readonly id: string;
  readonly from: string;
  readonly to: string;
  readonly label?: Label;
  readonly askComment?: boolean;
  readonly askAttributes?: readonly TransitionParameter[];
  /** `role:ID`, `group:ID` or `user:LOGIN` entries allowed to run it. */
  readonly grants?: readonly string[];
  /** Names of hooks registered in code. */
  readonly hooks?: Readonly<Partial<Record<"m0" | "m1" | "m2" | "m3", string>>>;
}

/** A lifecycle (workflow): states and the transitions between them. */
export interface Lifecycle {
  readonly name: string;
  readonly label?: Label;
  readonly firstState: string;
  readonly states: readonly LifecycleState[];
  readonly transitions: readonly LifecycleTransition[];
}

/** The state of `id` in a lifecycle, or undefined. */
export function findState(lifecycle: Lifecycle, id: string): LifecycleState | undefined {
  return lifecycle.states.find((state) => state.id === id);
}
