import { findState, type Lifecycle, type LifecycleTransition } from "./lifecycle.ts";
import { translate } from "../i18n/label.ts";
import type { CheckedTransition, TransitionOption } from "../ports/workflow-engine.port.ts";
import type { FieldDescription } from "../structures/structure-description.ts";

/** A state as the API shows it (api-v2.md, Lifecycle state object). */
export interface StateObject {
  id: string;
  isCurrentState: boolean;
  label: string;
  /** Translated activity label; null when the state has none. */
  activity: string | null;
  /** The activity, else the label. */
  displayValue: string;
  color: string;
}

/** A state in GET states/: with its URI and the transition leading there. */
export interface StateListItem extends StateObject {
  uri: string;
  transition: { id: string; uri: string; label: string; error: string | null; authorized: boolean } | null;
}

/** A state read alone (GET and POST states/<state>). */
export interface StateReading extends StateObject {
  transition: { uri: string; label: string } | null;
}

/** A parameter of a transition as GET transitions/<transition> shows it: described like a field. */
export type ParameterDescription = Omit<FieldDescription, "enum" | "content">;

/** GET transitions/<transition>. */
export interface TransitionDescription {
  id: string;
  beginState: StateObject;
  endState: StateObject;
  label: string;
  askComment: boolean;
  askAttributes: ParameterDescription[];
}

/** Where an element's lifecycle routes live: `<base>/workflows/...`, base as the request named the element. */
export interface LifecycleUris {
  readonly states: string;
  readonly transitions: string;
  state(id: string): string;
  transition(id: string): string;
}

/** The URIs of the lifecycle collection of an element named `ref` (as given), in the smart-structures variant when `family` is set. */
export function lifecycleUris(ref: string, family?: string): LifecycleUris {
  const base = family === undefined ? `/api/v2/smart-elements/${ref}` : `/api/v2/smart-structures/${family}/smart-elements/${ref}`;
  return {
    states: `${base}/workflows/states/`,
    transitions: `${base}/workflows/transitions/`,
    state: (id) => `${base}/workflows/states/${encodeURIComponent(id)}`,
    transition: (id) => `${base}/workflows/transitions/${encodeURIComponent(id)}`,
  };
}

/** The state object of `id` in a lifecycle, in the locale; labels fall back to the id. */
export function stateObject(lifecycle: Lifecycle, id: string, current: string, locale: string): StateObject {
  const state = findState(lifecycle, id);
  const label = translate(state?.label ?? id, locale);
  const activity = state?.activity ? translate(state.activity, locale) || null : null;
  return { id, isCurrentState: id === current, label, activity, displayValue: activity || label, color: state?.color ?? "" };
}

/** The translated label of a transition, its id when it has none. */
export function transitionLabel(transition: LifecycleTransition, locale: string): string {
  return translate(transition.label ?? transition.id, locale);
}

/** One entry of GET states/. */
export function stateListItem(
  lifecycle: Lifecycle, id: string, current: string, via: CheckedTransition | undefined, uris: LifecycleUris, locale: string,
): StateListItem {
  return {
    ...stateObject(lifecycle, id, current, locale),
    uri: uris.state(id),
    transition: via
      ? { id: via.transition.id, uri: uris.transition(via.transition.id), label: transitionLabel(via.transition, locale), error: via.error, authorized: via.authorized }
      : null,
  };
}

/** GET states/<state>: the state with the transition leading there from the current state. */
export function stateReading(
  lifecycle: Lifecycle, id: string, current: string, via: TransitionOption | undefined, uris: LifecycleUris, locale: string,
): StateReading {
  return {
    ...stateObject(lifecycle, id, current, locale),
    transition: via ? { uri: uris.transition(via.transition.id), label: transitionLabel(via.transition, locale) } : null,
  };
}

/** GET transitions/<transition>: both ends and the parameters it asks for. */
export function describeTransition(lifecycle: Lifecycle, transition: LifecycleTransition, current: string, locale: string): TransitionDescription {
  return {
    id: transition.id,
    beginState: stateObject(lifecycle, transition.from, current, locale),
    endState: stateObject(lifecycle, transition.to, current, locale),
    label: transitionLabel(transition, locale),
    askComment: transition.askComment === true,
    askAttributes: (transition.askAttributes ?? []).map((parameter, index) => ({
      id: parameter.id,
      visibility: "W",
      label: translate(parameter.label ?? parameter.id, locale),
      type: parameter.type,
      logicalOrder: index + 1,
      multiple: parameter.multiple === true,
      options: { ...parameter.options },
      needed: parameter.needed === true,
    })),
  };
}
