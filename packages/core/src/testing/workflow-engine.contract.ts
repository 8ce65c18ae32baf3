import { describe, expect, it } from "vitest";
import { locateSubject } from "../lifecycle/lifecycle-use-cases.ts";
import type { TransitionHooks } from "../lifecycle/transition-hooks.ts";
import type { Clock } from "../ports/clock.port.ts";
import type { StateChangeRequest, WorkflowEngine, WorkflowSubject } from "../ports/workflow-engine.port.ts";
import { lifecyclePlatform, recordingHooks, REVIEW_LIFECYCLE } from "./lifecycle-platform.ts";

/** What an engine is made with: the clock of the platform it serves, and the hooks the lifecycles name. */
export interface WorkflowEngineNeeds {
  readonly clock: Clock;
  readonly hooks: TransitionHooks;
}

/**
 * The behaviour every WorkflowEngine shares, on REVIEW_LIFECYCLE (draft, review, published,
 * archived; grants to a role, a group and a user; parameters; hooks m0 to m3, one not registered)
 * over an in-memory store: the transitions offered to whom, the guarded state change, what it
 * writes, and every refusal leaving the element as it was. `create` is called once per test.
 * @example
 * workflowEngineContract("lifecycle engine", ({ clock, hooks }) => createLifecycleEngine({ clock, hooks }));
 */
export function workflowEngineContract(name: string, create: (needs: WorkflowEngineNeeds) => WorkflowEngine): void {
  describe(`WorkflowEngine contract: ${name}`, () => {
    /** ART_HELLO (in draft) under REVIEW_LIFECYCLE, the engine, and the calls of its recording hooks. */
    async function world() {
      const seed = await lifecyclePlatform();
      const calls: string[] = [];
      const engine = create({ clock: seed.clock, hooks: recordingHooks(calls) });
      const subject = async (login: string, ref = "ART_HELLO"): Promise<WorkflowSubject> =>
        locateSubject(await seed.scope(await seed.principal(login)), ref);
      /** The latest revision of ART_HELLO, read from the store. */
      const latest = async () => (await seed.store.elements.latest(seed.hello.initid))!;
      const change = async (login: string, request: StateChangeRequest) => engine.changeState(await subject(login), request);
      return { ...seed, calls, engine, subject, latest, change };
    }
    type World = Awaited<ReturnType<typeof world>>;

    /** `attempt` is refused with `code`, and ART_HELLO is the revision it was, in its state. */
    async function refusedAsBefore(w: World, code: string, attempt: () => Promise<unknown>) {
      const before = await w.latest();
      await expect(attempt()).rejects.toMatchObject({ name: "LineageError", code });
      expect(await w.latest()).toEqual(before);
    }

    it("lists every transition in definition order: valid from the current state, authorized by its grants and the right to edit", async () => {
      const w = await world();
      const of = async (login: string) =>
        (await w.engine.transitions(await w.subject(login))).map((o) => [o.transition.id, o.valid, o.authorized]);
      const ids = REVIEW_LIFECYCLE.transitions.map((t) => t.id);
      expect((await of("alice")).map(([id]) => id)).toEqual(ids);
      expect(await of("alice")).toEqual([
        ["submit", true, true], ["publish", false, true], ["reject", false, true], ["retract", false, false], ["lock", true, true],
      ]);
      // bob may not edit articles: none of them, though retract names him.
      expect((await of("bob")).map(([, , authorized]) => authorized)).toEqual([false, false, false, false, false]);
      expect((await of("admin")).map(([, , authorized]) => authorized)).toEqual([true, true, true, true, true]);
    });

    it("offers the next states a principal may reach, in the lifecycle's order, with m0's refusal or a hook not registered", async () => {
      const w = await world();
      const next = await w.engine.nextStates(await w.subject("alice"));
      expect(next.map((c) => [c.transition.to, c.transition.id, c.valid, c.authorized])).toEqual([
        ["review", "submit", true, true], ["archived", "lock", true, true],
      ]);
      expect(next[0]?.error).toBeNull();
      expect(next[1]?.error).toEqual(expect.any(String));
      expect(await w.engine.nextStates(await w.subject("bob"))).toEqual([]);
      expect(w.calls).toEqual([]);
    });

    it("finds the transition leading to a state, asking m0, and none where no valid transition leads", async () => {
      const w = await world();
      const alice = await w.subject("alice");
      expect(await w.engine.transitionTo(alice, "review")).toMatchObject({ transition: { id: "submit" }, valid: true, authorized: true, error: null });
      expect(await w.engine.transitionTo(alice, "published")).toBeUndefined();
      expect(await w.engine.transitionTo(alice, "nowhere")).toBeUndefined();
      expect((await w.engine.transitionTo(alice, "archived"))?.error).toEqual(expect.any(String));
      await w.change("alice", { target: { transition: "submit" } });
      // In review, publish's m0 (guard) is asked.
      expect(await w.engine.transitionTo(await w.subject("alice"), "published")).toMatchObject({ transition: { id: "publish" }, error: null });
      expect(w.calls).toContain("m0:publish");
    });

    it("runs a transition: a new latest revision in the new state, the previous one fixed, the history written", async () => {
      const w = await world();
      const before = await w.latest();
      const outcome = await w.change("alice", { target: { transition: "submit" }, comment: "Ready for review" });
      expect(outcome.transition?.id).toBe("submit");
      expect([outcome.previous.id, outcome.previous.state, outcome.previous.revision]).toEqual([before.id, before.state, before.revision]);
      expect(outcome.revision).toMatchObject({ initid: before.initid, state: "review", revision: before.revision + 1 });
      expect(outcome.revision.id).not.toBe(before.id);
      expect(outcome.messages).toEqual([]);
      expect(await w.latest()).toEqual(outcome.revision);
      expect((await w.subject("alice")).element.state).toBe("review");
      const history = await w.store.elements.history(before.initid);
      expect(history.map((entry) => entry.comment)).toContain("Ready for review");
    });

    it("goes to a state through the transition leading there", async () => {
      const w = await world();
      const outcome = await w.change("alice", { target: { state: "review" } });
      expect([outcome.transition?.id, outcome.revision.state]).toEqual(["submit", "review"]);
    });

    it("checks the parameters, asks m1 before writing, then runs m2 and m3 in order, and gives their messages", async () => {
      const w = await world();
      await w.change("alice", { target: { transition: "submit" } });
      await refusedAsBefore(w, "WFL0300", () => w.change("alice", { target: { transition: "publish" }, parameters: { pub_date: "1999-12-31" } }));
      expect(w.calls).toEqual(["m0:publish", "m1"]);
      await expect(w.change("alice", { target: { transition: "publish" }, parameters: {} })).rejects.toMatchObject({ name: "LineageError" });
      expect((await w.latest()).state).toBe("review");
      w.calls.length = 0;
      const outcome = await w.change("alice", { target: { transition: "publish" }, parameters: { pub_date: "2026-05-01", pub_channels: ["tech"] } });
      expect(outcome.revision.state).toBe("published");
      expect(outcome.parameters).toEqual({ pub_date: "2026-05-01", pub_channels: ["tech"] });
      expect(outcome.messages).toEqual([{ level: "message", text: "Published" }, { level: "message", text: "Readers notified" }]);
      expect(w.calls).toEqual(["m0:publish", "m1", "m2:published", `m3:${outcome.revision.revision}`]);
    });

    it("keeps the change when m3 fails after the commit, and says so in a warning", async () => {
      const seed = await lifecyclePlatform();
      const hooks = recordingHooks([], { finally: () => { throw new Error("mail server down"); } });
      const engine = create({ clock: seed.clock, hooks });
      const subject = async () => locateSubject(await seed.scope(await seed.principal("alice")), "ART_HELLO");
      await engine.changeState(await subject(), { target: { transition: "submit" } });
      const outcome = await engine.changeState(await subject(), { target: { transition: "publish" }, parameters: { pub_date: "2026-05-01" } });
      expect(outcome.messages.map((m) => m.level)).toEqual(["message", "warning"]);
      expect(outcome.messages[1]?.text).toMatch(/mail server down/);
      expect((await seed.store.elements.latest(seed.hello.initid))?.state).toBe("published");
    });

    it("refuses, leaving the element as it was: no grant, a transition unknown or not from this state, a state unknown, m0's refusal, a hook not registered", async () => {
      const w = await world();
      await refusedAsBefore(w, "WFL0300", () => w.change("bob", { target: { transition: "submit" } }));
      await refusedAsBefore(w, "CRUD0229", () => w.change("alice", { target: { transition: "fly" } }));
      await refusedAsBefore(w, "CRUD0235", () => w.change("alice", { target: { transition: "publish" } }));
      await refusedAsBefore(w, "CRUD0228", () => w.change("alice", { target: { state: "nowhere" } }));
      await refusedAsBefore(w, "CRUD0235", () => w.change("alice", { target: { state: "published" } }));
      await refusedAsBefore(w, "WFL0300", () => w.change("alice", { target: { transition: "lock" } }));
      await w.change("alice", { target: { transition: "submit" } });
      await refusedAsBefore(w, "WFL0300", () => w.change("alice", { target: { transition: "reject" } }));
      // The refusal says what m0 (closed) said.
      await expect(w.change("alice", { target: { transition: "reject" } })).rejects.toThrow(/Rejections are closed this week/);
    });

    it("lets an admin force a state no valid transition leads to, with no transition and no hook", async () => {
      const w = await world();
      const outcome = await w.change("admin", { target: { state: "published" } });
      expect([outcome.transition, outcome.revision.state, outcome.previous.state]).toEqual([null, "published", "draft"]);
      expect(w.calls).toEqual([]);
    });

    it("appends one element.state event per change, in its transaction: the transition (null for a forced state), the new revision, the actor", async () => {
      const w = await world();
      const start = await w.store.events.lastSeq();
      await w.change("alice", { target: { transition: "submit" } });
      await w.change("admin", { target: { state: "archived" } });
      await expect(w.change("alice", { target: { transition: "publish" }, parameters: { pub_date: "1999-01-01" } })).rejects.toThrow();
      const events = await w.store.events.after(start, 10);
      expect(events.map((e) => [e.type, e.name, e.revision, e.state, e.actor, e.transition])).toEqual([
        ["element.state", "ART_HELLO", 1, "review", "alice", { id: "submit", from: "draft", to: "review" }],
        ["element.state", "ART_HELLO", 2, "archived", "admin", { id: null, from: "review", to: "archived" }],
      ]);
    });

    it("refuses a stale If-Match (412 CRUD0238) and a subject located before another change (WFL0409)", async () => {
      const w = await world();
      await refusedAsBefore(w, "CRUD0238", () => w.change("alice", { target: { transition: "submit" }, ifMatch: '"not-the-etag"' }));
      const stale = await w.subject("alice");
      await w.change("alice", { target: { transition: "submit" } });
      await refusedAsBefore(w, "WFL0409", () => w.engine.changeState(stale, { target: { transition: "submit" } }));
      expect((await w.latest()).revision).toBe(stale.element.revision + 1);
    });
  });
}
