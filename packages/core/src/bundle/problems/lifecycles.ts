import { checkGrant } from "./accounts.ts";
import type { BundleView } from "./bundle-view.ts";
import { checkEnumOf } from "./enumerates.ts";
import type { Known } from "./known-names.ts";
import { duplicates, type Report } from "./problem-report.ts";

/** Lifecycles: unique states and transitions, known states, profiles and grantees, enum parameters. */
export function checkLifecycles(view: BundleView, known: Known, report: Report): void {
  duplicates(view.lifecycles, (l) => l.name, "$.lifecycles", "name", "lifecycle", report);
  view.lifecycles.forEach((lifecycle, i) => {
    if (!lifecycle) return;
    const path = `$.lifecycles[${i}]`;
    const states = new Set(lifecycle.states.map((state) => state.id));
    duplicates(lifecycle.states, (s) => s.id, `${path}.states`, "id", "state", report);
    lifecycle.states.forEach((state, k) => {
      if (state.profile !== undefined && !known.profile(state.profile)) report(`${path}.states[${k}].profile`, `unknown profile "${state.profile}"`);
    });
    if (!states.has(lifecycle.firstState)) report(`${path}.firstState`, `"${lifecycle.firstState}" is not a state of "${lifecycle.name}"`);
    const transitions = lifecycle.transitions ?? [];
    duplicates(transitions, (t) => t.id, `${path}.transitions`, "id", "transition", report);
    transitions.forEach((transition, t) => {
      const at = `${path}.transitions[${t}]`;
      if (!states.has(transition.from)) report(`${at}.from`, `"${transition.from}" is not a state of "${lifecycle.name}"`);
      if (!states.has(transition.to)) report(`${at}.to`, `"${transition.to}" is not a state of "${lifecycle.name}"`);
      transition.grants?.forEach((entry, k) => checkGrant(entry, `${at}.grants[${k}]`, known, report));
      const parameters = transition.askAttributes ?? [];
      duplicates(parameters, (p) => p.id, `${at}.askAttributes`, "id", "parameter", report);
      parameters.forEach((parameter, k) => checkEnumOf(parameter, `${at}.askAttributes[${k}]`, known, report));
    });
  });
}
