import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { LineageError, readStateChangeBody, type ElementRevision, type HistoryEntry } from "./internals.ts";
import { lifecyclePlatform } from "../src/testing/lifecycle-platform.ts";

async function errorOf(fn: () => unknown): Promise<LineageError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof LineageError) return error;
    throw error;
  }
  throw new Error("expected an error");
}

type Seed = Awaited<ReturnType<typeof lifecyclePlatform>>;

const revisionCount = async (seed: Seed, initid: number) => (await seed.store.elements.revisions(initid)).length;

/** Moves ART_HELLO to review as alice. */
async function submitted(seed: Seed) {
  await seed.platform.lifecycle.runTransition(await seed.principal("alice"), "ART_HELLO", "submit");
  seed.calls.length = 0;
}

describe("the states offered", () => {
  it("lists the next states a user may reach, with m0's refusal as error, in their locale", async () => {
    const seed = await lifecyclePlatform();
    const { uri, states } = await seed.platform.lifecycle.listStates(await seed.principal("alice"), "ART_HELLO");
    expect(uri).toBe("/api/v2/smart-elements/ART_HELLO/workflows/states/");
    expect(states).toEqual([
      {
        id: "review", isCurrentState: false, label: "Relecture", activity: null, displayValue: "Relecture", color: "#0000AA",
        uri: "/api/v2/smart-elements/ART_HELLO/workflows/states/review",
        transition: { id: "submit", uri: "/api/v2/smart-elements/ART_HELLO/workflows/transitions/submit", label: "Soumettre", error: null, authorized: true },
      },
      expect.objectContaining({
        id: "archived",
        transition: expect.objectContaining({ id: "lock", authorized: true, error: 'Hook "notRegistered" (m1) of transition "lock" is not registered' }),
      }),
    ]);
  });

  it("offers nothing to a user without the grant or the edit permission", async () => {
    const seed = await lifecyclePlatform();
    expect((await seed.platform.lifecycle.listStates(await seed.principal("bob"), "ART_HELLO")).states).toEqual([]);
  });

  it("lists every state with allStates, the current one marked, m0 asked for the valid ones", async () => {
    const seed = await lifecyclePlatform();
    await submitted(seed);
    const { states } = await seed.platform.lifecycle.listStates(await seed.principal("admin"), String(seed.hello.initid), { all: true, family: "ARTICLE" });
    expect(states.map((s) => [s.id, s.isCurrentState, s.transition?.id ?? null, s.transition?.error ?? null])).toEqual([
      ["draft", false, "reject", "Rejections are closed this week"],
      ["review", true, null, null],
      ["published", false, "publish", null],
      ["archived", false, null, null],
    ]);
    expect(states[0]).toMatchObject({ label: "Draft", activity: "Writing", displayValue: "Writing", color: "#AAAAAA" });
    expect(states[2]?.uri).toBe(`/api/v2/smart-structures/ARTICLE/smart-elements/${seed.hello.initid}/workflows/states/published`);
    expect(seed.calls).toEqual(["m0:publish"]);
  });

  it("reads one state with the transition leading there, and refuses an unknown state", async () => {
    const seed = await lifecyclePlatform();
    const alice = await seed.principal("alice");
    expect(await seed.platform.lifecycle.readState(alice, "ART_HELLO", "review")).toEqual({
      uri: "/api/v2/smart-elements/ART_HELLO/workflows/states/review",
      state: {
        id: "review", isCurrentState: false, label: "Relecture", activity: null, displayValue: "Relecture", color: "#0000AA",
        transition: { uri: "/api/v2/smart-elements/ART_HELLO/workflows/transitions/submit", label: "Soumettre" },
      },
    });
    expect((await seed.platform.lifecycle.readState(alice, "ART_HELLO", "draft")).state).toMatchObject({ isCurrentState: true, transition: null });
    const unknown = await errorOf(() => seed.platform.lifecycle.readState(alice, "ART_HELLO", "nowhere"));
    expect([unknown.code, unknown.status, unknown.message]).toEqual(["CRUD0228", 404, 'State "nowhere" is not available for  workflow "Cycle des articles" (WFL_ARTICLE)']);
  });
});

describe("the transitions", () => {
  it("lists every transition, valid when it leaves the current state, whoever asks", async () => {
    const seed = await lifecyclePlatform();
    const { uri, transitions } = await seed.platform.lifecycle.listTransitions(await seed.principal("bob"), "ART_HELLO");
    expect(uri).toBe("/api/v2/smart-elements/ART_HELLO/workflows/transitions/");
    expect(transitions.map((t) => [t.id, t.valid])).toEqual([["submit", true], ["publish", false], ["reject", false], ["retract", false], ["lock", true]]);
    expect(transitions[0]).toEqual({ id: "submit", uri: "/api/v2/smart-elements/ART_HELLO/workflows/transitions/submit", label: "Submit", valid: true });
  });

  it("describes one transition with its ends and parameters", async () => {
    const seed = await lifecyclePlatform();
    const { uri, transition } = await seed.platform.lifecycle.readTransition(await seed.principal("alice"), "ART_HELLO", "publish");
    expect(uri).toBe("/api/v2/smart-elements/ART_HELLO/workflows/transitions/publish");
    expect(transition).toEqual({
      id: "publish",
      beginState: { id: "review", isCurrentState: false, label: "Relecture", activity: null, displayValue: "Relecture", color: "#0000AA" },
      endState: { id: "published", isCurrentState: false, label: "Published", activity: null, displayValue: "Published", color: "#00AA00" },
      label: "Publish",
      askComment: false,
      askAttributes: [
        { id: "pub_date", visibility: "W", label: "Date de parution", type: "date", logicalOrder: 1, multiple: false, options: {}, needed: true },
        { id: "pub_channels", visibility: "W", label: "Channels", type: "enum", logicalOrder: 2, multiple: true, options: { hint: "pick some" }, needed: false },
      ],
    });
    const unknown = await errorOf(async () => seed.platform.lifecycle.readTransition(await seed.principal("alice"), "ART_HELLO", "fly"));
    expect([unknown.code, unknown.status]).toEqual(["CRUD0229", 404]);
  });
});

describe("a state change", () => {
  it("starts a new revision in the new state, fixes the previous one and writes the history", async () => {
    const seed = await lifecyclePlatform();
    const alice = await seed.principal("alice");
    const result = await seed.platform.lifecycle.runTransition(alice, "ART_HELLO", "submit", { comment: "Ready for review" });
    expect(result).toEqual({
      data: { state: { id: "review", isCurrentState: true, label: "Relecture", activity: null, displayValue: "Relecture", color: "#0000AA" } },
      messages: [],
      etag: expect.any(String),
    });
    const revisions = await seed.store.elements.revisions(seed.hello.initid);
    expect(revisions.map((r) => [r.revision, r.state, r.fixed])).toEqual([[1, "review", false], [0, "draft", true]]);
    expect(revisions[0]?.values).toEqual(revisions[1]?.values);
    const reading = await seed.platform.elements.read(alice, "ART_HELLO");
    expect(result.etag).toBe(reading.etag);
    expect(reading.data.document.properties?.state).toEqual({ reference: "review", stateLabel: "Relecture", activity: "", displayValue: "Relecture", color: "#0000AA" });
    const listed = await seed.platform.revisions.list(alice, "ART_HELLO", { fields: "document.properties.status,document.properties.state" });
    expect(listed.data.revisions.map((r) => r.properties?.status)).toEqual(["alive", "fixed"]);
    const [latest] = (await seed.platform.revisions.history(alice, "ART_HELLO")).history;
    expect(latest?.messages.map((m) => [m.level, m.code, m.comment, m.uname])).toEqual([
      ["message", "STATE", "Ready for review", "alice"],
      ["notice", "STATE", 'Transition "Submit" (submit) from "Draft" to "Review"', "alice"],
      ["notice", "REVISION", "change state : Draft to Review", "alice"],
    ]);
  });

  it("goes to a state through the transition leading there, and answers like GET state", async () => {
    const seed = await lifecyclePlatform();
    const result = await seed.platform.lifecycle.changeStateTo(await seed.principal("alice"), "ART_HELLO", "review", {}, { family: "ARTICLE" });
    expect(result.data).toEqual({
      uri: "/api/v2/smart-structures/ARTICLE/smart-elements/ART_HELLO/workflows/states/review",
      state: { id: "review", isCurrentState: true, label: "Relecture", activity: null, displayValue: "Relecture", color: "#0000AA", transition: null },
    });
  });

  it("calls m0, m1, m2 in the transaction and m3 after the commit, and returns their messages", async () => {
    const seed = await lifecyclePlatform();
    await submitted(seed);
    const result = await seed.platform.lifecycle.runTransition(await seed.principal("alice"), "ART_HELLO", "publish", {
      parameters: { pub_date: "2026-05-01", pub_channels: ["tech", "food"] },
    });
    expect(seed.calls).toEqual(["m0:publish", "m1", "m2:published", "m3:2"]);
    expect(result.messages).toEqual([{ level: "message", text: "Published" }, { level: "message", text: "Readers notified" }]);
    const [latest] = (await seed.platform.revisions.history(await seed.principal("admin"), "ART_HELLO")).history;
    expect(latest?.messages[0]?.comment).toBe('Transition "Publish" (publish) from "Review" to "Published"; parameters: {"pub_date":"2026-05-01","pub_channels":["tech","food"]}');
  });

  it("passes typed parameters and the comment to the hooks", async () => {
    const seen: unknown[] = [];
    const seed = await lifecyclePlatform(undefined, { check: ({ parameters, comment, from, to }) => void seen.push({ parameters, comment, from, to }) });
    await submitted(seed);
    await seed.platform.lifecycle.runTransition(await seed.principal("alice"), "ART_HELLO", "publish", { comment: "Go", parameters: { pub_date: " 2026-05-01 ", pub_channels: "ai" } });
    expect(seen).toEqual([{ parameters: { pub_date: "2026-05-01", pub_channels: ["ai"] }, comment: "Go", from: "review", to: "published" }]);
  });

  it("refuses bad parameters with 400 naming the parameter, and writes nothing", async () => {
    const seed = await lifecyclePlatform();
    await submitted(seed);
    const alice = await seed.principal("alice");
    const cases: Array<[Record<string, unknown> | undefined, string, string]> = [
      [undefined, "WFL0311", 'Transition parameter "pub_date" is needed'],
      [{ pub_date: "" }, "WFL0311", 'Transition parameter "pub_date" is needed'],
      [{ pub_date: "tomorrow" }, "WFL0310", 'Transition parameter "pub_date": "tomorrow" is not a date (YYYY-MM-DD)'],
      [{ pub_date: "2026-01-01", pub_channels: ["tech", "nope"] }, "WFL0310", 'Transition parameter "pub_channels": "nope" is not a key of enumerate "CATEGORIES"'],
      [{ pub_date: "2026-01-01", pub_colour: "red" }, "WFL0312", 'Transition "publish" has no parameter "pub_colour"'],
    ];
    for (const [parameters, code, message] of cases) {
      const error = await errorOf(() => seed.platform.lifecycle.runTransition(alice, "ART_HELLO", "publish", { parameters }));
      expect([error.code, error.status, error.message]).toEqual([code, 400, message]);
    }
    expect(await revisionCount(seed, seed.hello.initid)).toBe(2);
    expect(seed.calls).toEqual(["m0:publish", "m0:publish", "m0:publish", "m0:publish", "m0:publish"]);
  });

  it("refuses with WFL0300 and the refusal as user message when m0 or m1 says no", async () => {
    const seed = await lifecyclePlatform();
    await submitted(seed);
    const alice = await seed.principal("alice");
    const m0 = await errorOf(() => seed.platform.lifecycle.runTransition(alice, "ART_HELLO", "reject"));
    expect([m0.code, m0.status, m0.userMessage, m0.message]).toEqual(["WFL0300", 403, "Rejections are closed this week", 'Cannot use transition "Rejections are closed this week"']);
    const m1 = await errorOf(() => seed.platform.lifecycle.runTransition(alice, "ART_HELLO", "publish", { parameters: { pub_date: "1999-12-31" } }));
    expect([m1.code, m1.userMessage]).toEqual(["WFL0300", "Too old to publish"]);
    expect(await revisionCount(seed, seed.hello.initid)).toBe(2);
    expect(seed.calls).toEqual(["m0:publish", "m1"]);
  });

  it("refuses a transition named hook that is not registered, without crashing", async () => {
    const seed = await lifecyclePlatform();
    const error = await errorOf(async () => seed.platform.lifecycle.runTransition(await seed.principal("alice"), "ART_HELLO", "lock"));
    expect([error.code, error.status, error.userMessage]).toEqual(["WFL0300", 403, 'Hook "notRegistered" (m1) of transition "lock" is not registered']);
    expect(await revisionCount(seed, seed.hello.initid)).toBe(1);
  });

  it("needs the transition's grant and the element's edit permission", async () => {
    const seed = await lifecyclePlatform();
    const bob = await seed.principal("bob");
    const noGrant = await errorOf(() => seed.platform.lifecycle.runTransition(bob, "ART_HELLO", "submit"));
    expect([noGrant.code, noGrant.userMessage]).toEqual(["WFL0300", 'Transition "Submit" is not granted to "bob"']);
    await seed.platform.lifecycle.changeStateTo(await seed.principal("admin"), "ART_HELLO", "published");
    // retract is granted to bob, but bob may only view articles.
    const noEdit = await errorOf(() => seed.platform.lifecycle.runTransition(bob, "ART_HELLO", "retract"));
    expect([noEdit.code, noEdit.userMessage]).toEqual(["WFL0300", 'Document "ART_HELLO" cannot be modified by "bob"']);
    const viaState = await errorOf(() => seed.platform.lifecycle.changeStateTo(bob, "ART_HELLO", "draft"));
    expect(viaState.code).toBe("WFL0300");
  });

  it("answers CRUD0235 for a transition not valid from the current state or a state no transition leads to", async () => {
    const seed = await lifecyclePlatform();
    const alice = await seed.principal("alice");
    const transition = await errorOf(() => seed.platform.lifecycle.runTransition(alice, "ART_HELLO", "publish"));
    expect([transition.code, transition.status, transition.message]).toEqual(["CRUD0235", 404, 'Destination state is not defined for workflow "Cycle des articles" (WFL_ARTICLE)']);
    const state = await errorOf(() => seed.platform.lifecycle.changeStateTo(alice, "ART_HELLO", "published"));
    expect(state.code).toBe("CRUD0235");
    const unknown = await errorOf(() => seed.platform.lifecycle.changeStateTo(alice, "ART_HELLO", "nowhere"));
    expect(unknown.code).toBe("CRUD0228");
    const unknownTransition = await errorOf(() => seed.platform.lifecycle.runTransition(alice, "ART_HELLO", "fly"));
    expect(unknownTransition.code).toBe("CRUD0229");
    expect(await revisionCount(seed, seed.hello.initid)).toBe(1);
  });

  it("lets only admin force a state no valid transition leads to, without hooks, saying so in the history", async () => {
    const seed = await lifecyclePlatform();
    const admin = await seed.principal("admin");
    const result = await seed.platform.lifecycle.changeStateTo(admin, "ART_HELLO", "published", { comment: "Emergency" });
    expect(result.data.state).toMatchObject({ id: "published", isCurrentState: true });
    expect(seed.calls).toEqual([]);
    const [latest] = (await seed.platform.revisions.history(admin, "ART_HELLO")).history;
    expect(latest?.messages.map((m) => m.comment)).toEqual(["Emergency", 'State forced by admin from "Draft" to "Published" (no valid transition)', "change state : Draft to Published"]);
    const withParameters = await errorOf(() => seed.platform.lifecycle.changeStateTo(admin, "ART_HELLO", "archived", { parameters: { x: 1 } }));
    expect(withParameters.code).toBe("WFL0312");
  });

  it("answers the lifecycle collection's errors for the element", async () => {
    const seed = await lifecyclePlatform();
    const admin = await seed.principal("admin");
    const cases: Array<[() => unknown, string, number]> = [
      [() => seed.platform.lifecycle.listStates(admin, "NOPE"), "CRUD0200", 404],
      [async () => seed.platform.lifecycle.listTransitions(await seed.principal("carol"), "ART_HELLO"), "CRUD0201", 403],
      [() => seed.platform.lifecycle.readState(admin, "ART_HELLO", "draft", { family: "AUTHOR" }), "CRUD0220", 404],
      [() => seed.platform.lifecycle.readTransition(admin, "AUTHOR_ADA", "submit"), "CRUD0227", 404],
      [() => seed.platform.lifecycle.runTransition(admin, "AUTHOR_ADA", "submit"), "CRUD0227", 404],
    ];
    for (const [call, code, status] of cases) {
      const error = await errorOf(call);
      expect([error.code, error.status]).toEqual([code, status]);
    }
    await seed.platform.elements.delete(admin, "ART_ZEBRA");
    const deleted = await errorOf(() => seed.platform.lifecycle.changeStateTo(admin, "ART_ZEBRA", "review"));
    expect([deleted.code, deleted.status, deleted.uri]).toEqual(["CRUD0219", 404, `/api/v2/trash/${seed.zebra.initid}.json`]);
  });
});

describe("guarding against changes meanwhile", () => {
  it("answers 409 WFL0409 and keeps nothing when the element got a new revision during the change", async () => {
    // m1 revises the element through the transaction (as any write meanwhile would): the checks were made on an old revision.
    const seed = await lifecyclePlatform(undefined, {
      check: async ({ element, repos }) => {
        const { id: _id, ...copy } = element;
        await repos.elements.save({ ...element, fixed: true });
        await repos.elements.insert({ ...copy, revision: element.revision + 1 });
      },
    });
    await submitted(seed);
    const error = await errorOf(async () => seed.platform.lifecycle.runTransition(await seed.principal("alice"), "ART_HELLO", "publish", { parameters: { pub_date: "2026-01-01" } }));
    expect([error.code, error.status, error.message]).toEqual(["WFL0409", 409, 'Element "ART_HELLO" changed meanwhile, reload and retry']);
    expect((await seed.store.elements.revisions(seed.hello.initid)).map((r) => [r.revision, r.state, r.fixed])).toEqual([[1, "review", false], [0, "draft", true]]);
  });

  it("lets one of two state changes from the same state win", async () => {
    const seed = await lifecyclePlatform();
    const alice = await seed.principal("alice");
    const outcomes = await Promise.allSettled([
      seed.platform.lifecycle.runTransition(alice, "ART_HELLO", "submit"),
      seed.platform.lifecycle.runTransition(alice, "ART_HELLO", "submit"),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
    const rejected = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
    expect(["CRUD0235", "WFL0409"]).toContain((rejected.reason as LineageError).code);
    expect(await revisionCount(seed, seed.hello.initid)).toBe(2);
  });

  it("keeps the change when m3 fails after the commit, with a warning", async () => {
    const seed = await lifecyclePlatform(undefined, { finally: async () => { throw new Error("mail server down"); } });
    await submitted(seed);
    const result = await seed.platform.lifecycle.runTransition(await seed.principal("alice"), "ART_HELLO", "publish", { parameters: { pub_date: "2026-01-01" } });
    expect(result.messages).toEqual([
      { level: "message", text: "Published" },
      { level: "warning", text: 'Hook "finally" (m3) failed after the state change: mail server down' },
    ]);
    expect((await seed.store.elements.latest(seed.hello.initid))?.state).toBe("published");
  });
});

describe("asynchronous hooks", () => {
  const later = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 2));
  const publish = { parameters: { pub_date: "2026-01-01" } };

  /** What the store holds of ART_HELLO: its revisions and its history. */
  const stored = async (seed: Seed) => ({
    revisions: await seed.store.elements.revisions(seed.hello.initid),
    history: await seed.store.elements.history(seed.hello.initid),
  });

  it("may await in m0, m1, m2 and m3, which run in that order and say what they return", async () => {
    const calls: string[] = [];
    const seed = await lifecyclePlatform(undefined, {
      guard: async () => void calls.push(await later("m0")),
      check: async () => void calls.push(await later("m1")),
      after: async () => later("Published").then((text) => (calls.push("m2"), text)),
      finally: async () => later("Readers notified").then((text) => (calls.push("m3"), text)),
    });
    await submitted(seed);
    const result = await seed.platform.lifecycle.runTransition(await seed.principal("alice"), "ART_HELLO", "publish", publish);
    expect(calls).toEqual(["m0", "m1", "m2", "m3"]);
    expect(result.messages).toEqual([{ level: "message", text: "Published" }, { level: "message", text: "Readers notified" }]);
    expect((await seed.store.elements.latest(seed.hello.initid))?.state).toBe("published");
  });

  it("refuse through an awaiting m0 in the states offered and in the change itself", async () => {
    const seed = await lifecyclePlatform(undefined, { guard: async () => later("Closed for the holidays") });
    await submitted(seed);
    const alice = await seed.principal("alice");
    const { states } = await seed.platform.lifecycle.listStates(alice, "ART_HELLO");
    expect(states.find((s) => s.id === "published")?.transition?.error).toBe("Closed for the holidays");
    const before = await stored(seed);
    const error = await errorOf(() => seed.platform.lifecycle.runTransition(alice, "ART_HELLO", "publish", publish));
    expect([error.code, error.userMessage]).toEqual(["WFL0300", "Closed for the holidays"]);
    expect(await stored(seed)).toEqual(before);
  });

  it("leave nothing when m1 awaits, then refuses, even what m1 wrote before", async () => {
    const seed = await lifecyclePlatform(undefined, {
      check: async ({ element, repos }) => {
        await repos.elements.appendHistory({ ...historyLine(element), comment: "checked by m1" });
        return later("The legal team said no");
      },
    });
    await submitted(seed);
    const before = await stored(seed);
    const error = await errorOf(async () => seed.platform.lifecycle.runTransition(await seed.principal("alice"), "ART_HELLO", "publish", publish));
    expect([error.code, error.status, error.userMessage]).toEqual(["WFL0300", 403, "The legal team said no"]);
    expect(await stored(seed)).toEqual(before);
    expect(seed.calls).toEqual(["m0:publish"]);
  });

  it("leave nothing of the transition when m2 awaits, then throws, even what m2 wrote before", async () => {
    const seed = await lifecyclePlatform(undefined, {
      after: async ({ element, repos }) => {
        await repos.elements.appendHistory({ ...historyLine(element), comment: "announced by m2" });
        await later(undefined);
        throw new Error("the announcement service is down");
      },
    });
    await submitted(seed);
    const before = await stored(seed);
    const dataBefore = await seed.store.changes.read();
    await expect(seed.platform.lifecycle.runTransition(await seed.principal("alice"), "ART_HELLO", "publish", publish)).rejects.toThrow("the announcement service is down");
    expect(await stored(seed)).toEqual(before);
    expect(await seed.store.changes.read()).toEqual(dataBefore);
    expect(seed.calls).toEqual(["m0:publish", "m1"]);
  });

  it("commit what m1 and m2 write through the transaction with the state change", async () => {
    const seed = await lifecyclePlatform(undefined, {
      after: async ({ element, repos }) => {
        await later(undefined);
        await repos.elements.appendHistory({ ...historyLine(element), comment: "announced by m2" });
        return "Announced";
      },
    });
    await submitted(seed);
    await seed.platform.lifecycle.runTransition(await seed.principal("alice"), "ART_HELLO", "publish", publish);
    expect((await seed.store.elements.history(seed.hello.initid)).map((entry) => entry.comment)).toContain("announced by m2");
  });

  it("run m3 after the commit: it reads the new state from the store, and its failure keeps the change", async () => {
    const seen: unknown[] = [];
    const seed = await lifecyclePlatform(undefined, {
      after: ({ repos, element }) => void seen.push(["m2", element.state, repos === seed.store]),
      finally: async ({ repos, element }) => {
        await later(undefined);
        const latest = await seed.store.elements.latest(element.initid);
        seen.push(["m3", latest?.id === element.id && latest.state, repos === seed.store]);
      },
    });
    await submitted(seed);
    await seed.platform.lifecycle.runTransition(await seed.principal("alice"), "ART_HELLO", "publish", publish);
    expect(seen).toEqual([["m2", "published", false], ["m3", "published", true]]);
  });

  it("may call an HTTP service in m2, and the transaction waits for its answer", async () => {
    const server = createServer((request, response) => {
      response.setHeader("content-type", "text/plain");
      response.end(`Announced ${request.url ?? ""}`);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const seed = await lifecyclePlatform(undefined, {
        after: async ({ element }) => (await fetch(`http://127.0.0.1:${port}/${element.name ?? ""}`)).text(),
      });
      await submitted(seed);
      const result = await seed.platform.lifecycle.runTransition(await seed.principal("alice"), "ART_HELLO", "publish", publish);
      expect(result.messages[0]).toEqual({ level: "message", text: "Announced /ART_HELLO" });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("leave nothing when the request's deadline passes while m2 awaits", async () => {
    const deadline = { aborted: false };
    const seed = await lifecyclePlatform(undefined, {
      after: async () => {
        await later(undefined);
        deadline.aborted = true;
      },
    });
    await submitted(seed);
    const before = await stored(seed);
    const error = await errorOf(async () => seed.platform.lifecycle.runTransition(await seed.principal("alice"), "ART_HELLO", "publish", { ...publish, deadline }));
    expect([error.code, error.status]).toEqual(["API0101", 503]);
    expect(await stored(seed)).toEqual(before);
  });
});

/** A history line a hook writes about the element (its comment aside). */
function historyLine(element: ElementRevision): Omit<HistoryEntry, "comment"> {
  return {
    initid: element.initid, revisionId: element.id, revision: element.revision,
    accountId: 0, accountName: "hook", date: "2026-01-01T00:00:00.000Z", level: "notice", code: null,
  };
}

describe("the body of a state change", () => {
  it("takes an object with a string comment and an object of parameters", () => {
    expect(readStateChangeBody(undefined)).toEqual({ comment: undefined, parameters: undefined });
    expect(readStateChangeBody({ comment: null, parameters: null })).toEqual({ comment: undefined, parameters: undefined });
    expect(readStateChangeBody({ comment: "c", parameters: { a: 1 }, other: true })).toEqual({ comment: "c", parameters: { a: 1 } });
    for (const body of [[], "text", 3, null, { comment: 3 }, { parameters: [] }, { parameters: "a=1" }]) {
      expect(() => readStateChangeBody(body)).toThrow(expect.objectContaining({ code: "API0009", status: 400 }));
    }
  });
});

describe("transitions without grants", () => {
  it("may be run by anyone who may edit the element, and by nobody else", async () => {
    const { seededPlatform } = await import("../src/testing/seeded-platform.ts");
    const seed = await seededPlatform();
    const refused = await errorOf(async () => seed.platform.lifecycle.runTransition(await seed.principal("bob"), "ART_HELLO", "publish"));
    expect([refused.code, refused.status]).toEqual(["WFL0300", 403]);
    const done = await seed.platform.lifecycle.runTransition(await seed.principal("alice"), "ART_HELLO", "publish");
    expect(done.data.state.id).toBe("published");
  });
});
