import { describe, expect, it } from "vitest";
import { seededPlatform } from "@lineage/core/testing";
import { createHttpApp } from "../src/index.ts";

/*
 * The /api/ chain calls the `authentication` middleware itself rather than through Hono's
 * compose: what it answers must be taken exactly as Hono would take it.
 */

describe("a replaced authentication of /api/", () => {
  it("lets the route answer when it passes the request on, however it returns", async () => {
    const { platform, principal } = await seededPlatform();
    const bob = await principal("bob");
    for (const authentication of [
      async (c: any, next: () => Promise<void>) => { c.set("principal", bob); await next(); },
      (c: any, next: () => Promise<void>) => { c.set("principal", bob); return next(); },
    ]) {
      const app = createHttpApp({ platform, authentication });
      const answer = await app.request("/api/v2/smart-elements/ART_HELLO");
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as any).data.document.properties.title).toBe("Hello");
      expect(answer.headers.get("x-request-id")).toBeTruthy();
    }
  });

  it("answers for the route when it answers itself, and its errors get the envelope, wrapped for alt=html", async () => {
    const { platform } = await seededPlatform();
    const teapot = createHttpApp({ platform, authentication: async (c) => c.json({ brewed: true }, 418) });
    const answer = await teapot.request("/api/v2/smart-elements/ART_HELLO");
    expect([answer.status, await answer.json()]).toEqual([418, { brewed: true }]);

    const refusing = createHttpApp({ platform, authentication: () => { throw new Error("directory down"); }, onUnexpectedError: () => {} });
    const failed = await refusing.request("/api/v2/smart-elements/ART_HELLO?alt=html");
    expect(failed.status).toBe(500);
    expect(await failed.text()).toMatch(/^<html><body><textarea>\{&quot;success&quot;:false/);
  });
});
