import { createTransitionHooks, type Lifecycle, type TransitionHooks } from "@lineage/core";

/** How recipes are published: the kitchen service approves a draft (hook m1), then announces it (hook m2). */
export const PUBLISHING: Lifecycle = {
  name: "RECIPE_PUBLISHING",
  label: { en: "Publishing", fr: "Publication" },
  firstState: "draft",
  states: [
    { id: "draft", label: { en: "Draft", fr: "Brouillon" } },
    { id: "published", label: { en: "Published", fr: "Publiée" } },
  ],
  transitions: [
    { id: "publish", from: "draft", to: "published", label: { en: "Publish", fr: "Publier" }, hooks: { m1: "kitchenApproves", m2: "kitchenAnnounces" } },
  ],
};

/**
 * The hooks of PUBLISHING, calling the kitchen service at `kitchen` (a base URL) with fetch.
 * Both run inside the state change's transaction, so whatever fails leaves nothing of it:
 * m1 refuses the transition with the kitchen's reason when it does not approve; m2's call
 * failing rolls the new revision back, and its answer is the message the user is shown.
 * @example
 * const platform = createPlatform({ store, hooks: publishingHooks("http://127.0.0.1:8091/") });
 */
export function publishingHooks(kitchen: string): TransitionHooks {
  async function call(path: string, body: unknown): Promise<Response> {
    // The transaction stays open (on SQLite, the write lock held) while the service answers: give it little time.
    return fetch(new URL(path, kitchen), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(5_000),
    });
  }
  return createTransitionHooks({
    kitchenApproves: async ({ element }) => {
      const answer = await call("approve", { recipe: element.title });
      if (!answer.ok) return `The kitchen does not approve "${element.title}": ${await answer.text()}`;
    },
    kitchenAnnounces: async ({ element, principal }) => {
      const answer = await call("announce", { recipe: element.title, revision: element.revision, by: principal.account.login });
      const text = await answer.text();
      if (!answer.ok) throw new Error(`the kitchen could not announce "${element.title}" (${answer.status}): ${text}`);
      return text;
    },
  });
}
