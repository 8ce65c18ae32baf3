import { describe, expect, it } from "vitest";
import { createMemoryStore } from "@lineage/core/testing";
import { countingStore } from "@lineage/core/testing";
import { seededPlatform } from "@lineage/core/testing";
import { createHttpApp } from "../src/index.ts";

describe("a console page", () => {
  it("resumes the session once: the authenticator hands its form token to the page", async () => {
    const counting = countingStore(createMemoryStore());
    const seed = await seededPlatform(counting.store);
    const app = createHttpApp({ platform: seed.platform, onUnexpectedError: () => {} });
    const { secret, session } = await seed.platform.auth.service().openSession(await seed.principal("admin"));
    counting.reset();
    const answer = await app.request("/console/elements/ART_HELLO", { headers: { cookie: `lineage-session=${secret}` } });
    expect(answer.status).toBe(200);
    // The form token is the session's: in the logout form; the delete link is there for a session only.
    const text = await answer.text();
    expect(text.match(new RegExp(`name="csrf" value="${session.csrfToken}"`, "g"))).toHaveLength(1);
    expect(text).toContain(`href="/console/elements/${seed.hello.initid}/delete"`);
    expect(counting.calls.filter((call) => call === "sessions.byId")).toHaveLength(1);
  });
});
