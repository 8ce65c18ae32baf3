import { isGranted } from "../accounts/principal.ts";
import { findState, type Lifecycle, type LifecycleTransition } from "./lifecycle.ts";
import { trashUri } from "../elements/element-uri.ts";
import type { HistoryEntry } from "../elements/history-entry.ts";
import type { ElementRevision, FieldValue } from "../elements/smart-element.ts";
import { checkIfMatch } from "../elements/if-match.ts";
import { historyEntry, reviseElement } from "../elements/write-elements.ts";
import { refuseIfLockedByOther } from "../elements/lock-check.ts";
import { LineageError } from "../errors/lineage-error.ts";
import { translate } from "../i18n/label.ts";
import { systemClock, type Clock } from "../ports/clock.port.ts";
import type {
  CheckedTransition, StateChangeOutcome, StateChangeRequest, TransitionMessage, TransitionOption, WorkflowEngine, WorkflowSubject,
} from "../ports/workflow-engine.port.ts";
import { createTransitionHooks, missingHook, runHook, type HookPhase, type TransitionHookContext, type TransitionHooks } from "./transition-hooks.ts";
import { checkTransitionParameters } from "./transition-parameters.ts";

export interface LifecycleEngineOptions {
  /** Dates of new revisions and history entries. */
  readonly clock?: Clock;
  /** Hooks the lifecycles' transitions name; none by default. */
  readonly hooks?: TransitionHooks;
}

/** The current state of an element; an element created before its structure had a lifecycle is in the first state. */
export function currentStateOf(subject: WorkflowSubject): string {
  return subject.element.state ?? subject.lifecycle.firstState;
}

const lifecycleTitle = (lifecycle: Lifecycle, locale: string) => translate(lifecycle.label ?? lifecycle.name, locale);
const stateLabel = (lifecycle: Lifecycle, id: string, locale: string) => translate(findState(lifecycle, id)?.label ?? id, locale);
const elementName = (element: ElementRevision) => element.name ?? String(element.initid);

/** Why the principal may not run a transition on the element, or null when they may. */
function rightsRefusal(subject: WorkflowSubject, transition: LifecycleTransition): string | null {
  const { scope, element } = subject;
  const login = scope.principal.account.login;
  // No `grants` means no restriction beyond the edit permission, as a structure without profile is open.
  if (transition.grants !== undefined && !isGranted(transition.grants, scope.principal)) {
    return `Transition "${translate(transition.label ?? transition.id, scope.locale)}" is not granted to "${login}"`;
  }
  if (!scope.permissions(element).has("edit")) return `Document "${elementName(element)}" cannot be modified by "${login}"`;
  return null;
}

/**
 * The default workflow engine: grants, the element's edit permission, hooks
 * m0 to m3 and typed parameters, over the store of the subject's request scope.
 * Any hook may be async (see TransitionHook).
 * @example
 * const engine = createLifecycleEngine({ hooks: createTransitionHooks({ notify: async () => "Sent" }) });
 */
export function createLifecycleEngine(options: LifecycleEngineOptions = {}): WorkflowEngine {
  const clock = options.clock ?? systemClock;
  const hooks = options.hooks ?? createTransitionHooks();

  const hookContext = (
    subject: WorkflowSubject, transition: LifecycleTransition, phase: HookPhase,
    extra: { element?: ElementRevision; comment?: string; parameters?: Readonly<Record<string, FieldValue>> } = {},
  ): TransitionHookContext => ({
    phase,
    principal: subject.scope.principal,
    repos: subject.scope.repos,
    lifecycle: subject.lifecycle,
    transition,
    element: extra.element ?? subject.element,
    from: transition.from,
    to: transition.to,
    comment: extra.comment ?? "",
    parameters: extra.parameters ?? {},
  });

  const option = (subject: WorkflowSubject, transition: LifecycleTransition): TransitionOption => ({
    transition,
    valid: transition.from === currentStateOf(subject),
    authorized: rightsRefusal(subject, transition) === null,
  });

  /** m0's refusal (or a hook not registered), asked for a valid transition. */
  const check = async (subject: WorkflowSubject, found: TransitionOption): Promise<CheckedTransition> => ({
    ...found,
    error: missingHook(found.transition, hooks) ?? (await runHook(hooks, hookContext(subject, found.transition, "m0"))),
  });

  const leadingTo = (subject: WorkflowSubject, state: string): TransitionOption | undefined => {
    const candidates = subject.lifecycle.transitions.map((t) => option(subject, t)).filter((o) => o.valid && o.transition.to === state);
    return candidates.find((o) => o.authorized) ?? candidates[0];
  };

  const refuse = (text: string) => new LineageError("WFL0300", [text], { userMessage: text });

  /** The transition a request runs; null when an admin forces a state no valid transition leads to. */
  function resolve(subject: WorkflowSubject, request: StateChangeRequest): LifecycleTransition | null {
    const { lifecycle, scope } = subject;
    const title = lifecycleTitle(lifecycle, scope.locale);
    if ("transition" in request.target) {
      const id = request.target.transition;
      const transition = lifecycle.transitions.find((t) => t.id === id);
      if (!transition) throw new LineageError("CRUD0229", [id, title, lifecycle.name]);
      if (transition.from !== currentStateOf(subject)) throw new LineageError("CRUD0235", [title, lifecycle.name]);
      return transition;
    }
    const state = request.target.state;
    if (!findState(lifecycle, state)) throw new LineageError("CRUD0228", [state, title, lifecycle.name]);
    const via = leadingTo(subject, state);
    if (via) return via.transition;
    if (!scope.principal.isAdmin) throw new LineageError("CRUD0235", [title, lifecycle.name]);
    return null;
  }

  function history(subject: WorkflowSubject, revision: ElementRevision, line: Pick<HistoryEntry, "level" | "code" | "comment">): Promise<void> {
    return subject.scope.repos.elements.appendHistory(historyEntry(subject.scope, revision, clock.now(), line));
  }

  /** Inside the transaction (`located.scope` reads through it): checks, m1, the new revision, the history, m2. */
  async function change(located: WorkflowSubject, request: StateChangeRequest) {
    const { scope, lifecycle } = located;
    const repos = scope.repos;
    const element = await repos.elements.latest(located.element.initid);
    if (!element) throw new LineageError("WFL0409", [elementName(located.element)]);
    if (element.status === "deleted") {
      throw new LineageError("CRUD0219", [elementName(element)], { userMessage: `Document "${elementName(element)}" is deleted`, uri: trashUri(element.initid) });
    }
    // Before the check against the revision located outside the transaction: a client that named an ETag learns it is stale.
    await checkIfMatch(scope, element, request.ifMatch, elementName(element));
    if (element.id !== located.element.id) throw new LineageError("WFL0409", [elementName(located.element)]);
    await refuseIfLockedByOther(scope, element, (reason) => refuse(`Could not perform transition: ${reason}`));
    const subject: WorkflowSubject = { ...located, element };
    const from = currentStateOf(subject);
    const transition = resolve(subject, request);
    if (transition) {
      const refusal = rightsRefusal(subject, transition) ?? missingHook(transition, hooks) ?? (await runHook(hooks, hookContext(subject, transition, "m0")));
      if (refusal) throw refuse(refusal);
    }
    if (request.comment !== undefined && typeof request.comment !== "string") throw new LineageError("API0009", ['"comment" must be a string']);
    const comment = request.comment ?? "";
    const parameters = await checkTransitionParameters(transition, request.parameters, scope);
    if (transition) {
      const refusal = await runHook(hooks, hookContext(subject, transition, "m1", { comment, parameters }));
      if (refusal) throw refuse(refusal);
      // m1 may write; a new revision meanwhile means the checks above were made on an old one.
      if ((await repos.elements.latest(element.initid))?.id !== element.id) throw new LineageError("WFL0409", [elementName(element)]);
    }
    const to = transition?.to ?? (request.target as { state: string }).state;
    const [fromLabel, toLabel] = [stateLabel(lifecycle, from, "en"), stateLabel(lifecycle, to, "en")];
    const revision = await reviseElement(scope, clock, element, {
      state: to, comment: `change state : ${fromLabel} to ${toLabel}`, transition: { id: transition?.id ?? null, from, to },
    });
    const parametersText = Object.keys(parameters).length > 0 ? `; parameters: ${JSON.stringify(parameters)}` : "";
    await history(subject, revision, {
      level: "notice",
      code: "STATE",
      comment: transition
        ? `Transition "${translate(transition.label ?? transition.id, "en")}" (${transition.id}) from "${fromLabel}" to "${toLabel}"${parametersText}`
        : `State forced by admin from "${fromLabel}" to "${toLabel}" (no valid transition)`,
    });
    if (comment.trim()) await history(subject, revision, { level: "message", code: "STATE", comment });
    const messages: TransitionMessage[] = [];
    if (transition) {
      const said = await runHook(hooks, hookContext(subject, transition, "m2", { element: revision, comment, parameters }));
      if (said) messages.push({ level: "message", text: said });
    }
    const previous = (await repos.elements.byId(element.id)) ?? element;
    return { subject, transition, revision, previous, comment, parameters, messages };
  }

  return {
    transitions: (subject) => Promise.resolve(subject.lifecycle.transitions.map((t) => option(subject, t))),

    async transitionTo(subject, state) {
      const via = leadingTo(subject, state);
      return via && (await check(subject, via));
    },

    async nextStates(subject) {
      const offered = new Map<string, CheckedTransition>();
      for (const transition of subject.lifecycle.transitions) {
        const found = option(subject, transition);
        if (found.valid && found.authorized && !offered.has(transition.to)) offered.set(transition.to, await check(subject, found));
      }
      const order = subject.lifecycle.states.map((s) => s.id);
      return [...offered.values()].sort((a, b) => order.indexOf(a.transition.to) - order.indexOf(b.transition.to));
    },

    async changeState(subject, request): Promise<StateChangeOutcome> {
      // The change reads the latest revision again inside the transaction, through its repositories.
      const done = await subject.scope.transaction((tx) => change({ ...subject, scope: tx }, request), { deadline: request.deadline });
      const messages = [...done.messages];
      const m3 = done.transition?.hooks?.m3;
      if (done.transition && m3) {
        try {
          // m3 runs after the commit, on the store rather than the finished transaction.
          const after: WorkflowSubject = { ...done.subject, scope: subject.scope };
          const said = await runHook(hooks, hookContext(after, done.transition, "m3", { element: done.revision, comment: done.comment, parameters: done.parameters }));
          if (said) messages.push({ level: "message", text: said });
        } catch (error) {
          // The state change is stored: a failing m3 cannot undo it, the user is told.
          messages.push({ level: "warning", text: `Hook "${m3}" (m3) failed after the state change: ${error instanceof Error ? error.message : String(error)}` });
        }
      }
      return { revision: done.revision, previous: done.previous, transition: done.transition, parameters: done.parameters, messages };
    },
  };
}
