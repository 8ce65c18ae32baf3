import { createPlatform, createScryptPasswordHasher, createTransitionHooks, type Lifecycle, type Platform, type Store, type TransitionHook } from "../index.ts";
import { createMemoryStore } from "./memory-store.ts";
import { principalsOf, seededPlatform } from "./seeded-platform.ts";

/**
 * WFL_ARTICLE with a review step: grants, parameters, hooks (one not
 * registered) and translated labels. Replaces the seeded lifecycle.
 */
export const REVIEW_LIFECYCLE: Lifecycle = {
  name: "WFL_ARTICLE",
  label: { en: "Article lifecycle", fr: "Cycle des articles" },
  firstState: "draft",
  states: [
    { id: "draft", label: { en: "Draft", fr: "Brouillon" }, activity: { en: "Writing", fr: "Rédaction" }, color: "#AAAAAA" },
    { id: "review", label: { en: "Review", fr: "Relecture" }, color: "#0000AA" },
    { id: "published", label: "Published", color: "#00AA00" },
    { id: "archived", label: "Archived", color: "#555555" },
  ],
  transitions: [
    { id: "submit", from: "draft", to: "review", label: { en: "Submit", fr: "Soumettre" }, askComment: true, grants: ["role:editor"] },
    {
      id: "publish", from: "review", to: "published", label: "Publish", grants: ["role:editor"],
      askAttributes: [
        { id: "pub_date", type: "date", label: { en: "Date", fr: "Date de parution" }, needed: true },
        { id: "pub_channels", type: "enum", enum: "CATEGORIES", multiple: true, label: "Channels", options: { hint: "pick some" } },
      ],
      hooks: { m0: "guard", m1: "check", m2: "after", m3: "finally" },
    },
    { id: "reject", from: "review", to: "draft", label: "Reject", grants: ["group:newsroom"], hooks: { m0: "closed" } },
    { id: "retract", from: "published", to: "draft", label: "Retract", grants: ["user:bob"] },
    { id: "lock", from: "draft", to: "archived", label: "Lock", grants: ["role:editor"], hooks: { m1: "notRegistered" } },
  ],
};

/** Hooks recording their calls in `calls`; `check` (m1) refuses a publication date before 2000. */
export function recordingHooks(calls: string[], overrides: Record<string, TransitionHook> = {}) {
  return createTransitionHooks({
    guard: ({ transition }) => {
      calls.push(`m0:${transition.id}`);
    },
    check: ({ parameters }) => {
      calls.push("m1");
      return typeof parameters.pub_date === "string" && parameters.pub_date < "2000" ? "Too old to publish" : undefined;
    },
    after: ({ element }) => {
      calls.push(`m2:${element.state}`);
      return "Published";
    },
    finally: async ({ element }) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      calls.push(`m3:${element.revision}`);
      return "Readers notified";
    },
    closed: () => "Rejections are closed this week",
    ...overrides,
  });
}

/** The seeded platform with REVIEW_LIFECYCLE and recording hooks (on the given store, in memory by default). */
export async function lifecyclePlatform(store: Store = createMemoryStore(), overrides: Record<string, TransitionHook> = {}) {
  const seed = await seededPlatform(store);
  await store.transaction((tx) => tx.catalog.saveLifecycle(REVIEW_LIFECYCLE));
  const calls: string[] = [];
  const hooks = recordingHooks(calls, overrides);
  const hasher = createScryptPasswordHasher({ N: 1024 });
  const platform = createPlatform({ store, clock: seed.clock, hasher, hooks });
  const twin = (other: Store): Platform => createPlatform({ store: other, clock: seed.clock, hasher, hooks });
  return { ...seed, platform, principal: principalsOf(platform), calls, twin };
}
