import type { Platform } from "@lineage/core";
import { Hono } from "hono";
import * as v from "valibot";
import type { HttpEnv } from "../http-env.ts";
import { describedRoute, type RouteDescription } from "../openapi/index.ts";
import { CONSOLE_SCRIPT } from "./console-script.ts";
import { formText } from "./form-text.ts";
import { candidatesNamed, SUGGESTIONS, type RelationTarget } from "./relation-picker.ts";

/**
 * What the console's forms ask besides pages: the suggestions of a relation picker (titles the
 * person may view, as JSON) and the script that enhances the pages. Mounted under the console's
 * authentication.
 */
export function formRoutes(platform: Platform): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });
  app.get("/console/relations", describedRoute(DESCRIBED.relations, async (c) => {
    const principal = c.get("principal");
    const structure = c.req.query("structure") ?? "";
    const target: RelationTarget | undefined = c.req.query("accounts") === "1" ? { kind: "account" }
      : structure && (await platform.structures.definitions()).structure(structure) ? { kind: "element", structure } : undefined;
    const words = (c.req.query("q") ?? "").trim().slice(0, 200);
    const choices = target && words ? await candidatesNamed(platform, principal, target, words, SUGGESTIONS, formText(principal.account.locale)) : [];
    return c.json({ choices }, 200, { "Cache-Control": "no-store" });
  }));
  app.get("/console/assets/console.js", describedRoute(DESCRIBED.script, (c) =>
    c.body(CONSOLE_SCRIPT, 200, { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "private, max-age=300", "X-Content-Type-Options": "nosniff" })));
  return app;
}

const REFUSED = [{ status: 302, contentType: null, description: "No session: redirect to the login form, then back" }];
const DESCRIBED: Record<"relations" | "script", RouteDescription> = {
  relations: {
    tag: "Console", summary: "The console: suggestions of a relation picker, titles the person may view that contain the words typed", authenticated: false,
    query: v.object({
      structure: v.optional(v.pipe(v.string(), v.description("The structure whose elements (and those of the structures inheriting it) are suggested"))),
      accounts: v.optional(v.pipe(v.literal("1"), v.description("Suggest accounts instead (by name or login)"))),
      q: v.optional(v.pipe(v.string(), v.description("Words the titles contain"))),
    }),
    response: {
      envelope: false, description: "At most 12 suggestions, by title",
      data: v.object({ choices: v.array(v.object({ value: v.pipe(v.string(), v.description("An element's initid, or an account's login")), label: v.string() })) }),
    },
    otherResponses: REFUSED,
  },
  script: {
    tag: "Console", summary: "The console: the script that enhances its pages (relation picker, HTML editor); every page works without it", authenticated: false,
    response: { contentType: "text/javascript", description: "The script" }, otherResponses: REFUSED,
  },
};
