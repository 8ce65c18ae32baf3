import { Hono, type Context } from "hono";
import type { ErrorCode, LockKind } from "@lineage/core";
import * as v from "valibot";
import { describedRoute, type RouteDescription } from "../openapi/index.ts";
import { ELEMENT_PARAMS } from "../openapi/path-parameters.ts";
import { successEnvelope } from "../envelope.ts";
import type { HttpEnv } from "../http-env.ts";
import { splitFormat } from "../resource-name.ts";

/** The two homes of an element's locks. */
const ELEMENT_BASES = ["/smart-elements/:docid", "/smart-structures/:family/smart-elements/:docid"] as const;

const LockInfoSchema = v.object({
  readOnly: v.pipe(v.boolean(), v.description("True when the caller may not change the element now: no edit right, or a lock someone else holds")),
  uri: v.string(),
  lock: v.nullable(v.object({
    lockedBy: v.object({ id: v.pipe(v.number(), v.description("The holder's account id")), title: v.pipe(v.string(), v.description("The holder's display name")) }),
    isMyLock: v.boolean(),
    temporary: v.boolean(),
    fixed: v.literal(false),
  })),
});

const LOCATE_ERRORS: readonly ErrorCode[] = ["CRUD0200", "CRUD0201", "CRUD0219", "CRUD0220", "ROUTES0105"];

function descriptions(base: string, kind: LockKind): Record<"read" | "take" | "retake" | "release", RouteDescription> {
  const where = base.includes(":family") ? " (family-checked)" : "";
  const which = kind === "all" ? "the lock" : `the ${kind} lock`;
  const response = { data: LockInfoSchema };
  return {
    read: { tag: "Locks", summary: `Read ${which} of an element${where}`, params: ELEMENT_PARAMS, response, errors: LOCATE_ERRORS },
    take: {
      tag: "Locks", summary: `Take ${which} of an element${where}`, params: ELEMENT_PARAMS,
      description: kind === "temporary"
        ? "Taken only when the element has no lock; a lock someone else holds, or no edit right, gives 400 CRUD0231."
        : "Replaces the caller's temporary lock; a lock someone else holds, or no edit right, gives 400 CRUD0231.",
      response: { ...response, status: 201 }, errors: [...LOCATE_ERRORS, "CRUD0231"],
    },
    retake: {
      tag: "Locks", summary: `Take ${which} of an element${where} (as POST, answering 200)`, params: ELEMENT_PARAMS,
      response, errors: [...LOCATE_ERRORS, "CRUD0231"],
    },
    release: {
      tag: "Locks", summary: `Release ${which} of an element${where}`, params: ELEMENT_PARAMS,
      description: kind === "all"
        ? "Releases the lock whatever its kind. Only its holder, while they may edit, or an administrator may (400 CRUD0232)."
        : `Refuses a lock of the other kind (400 ${kind === "temporary" ? "CRUD0233" : "CRUD0234"}). Only its holder, while they may edit, or an administrator may (400 CRUD0232).`,
      response,
      errors: [...LOCATE_ERRORS, "CRUD0232", ...(kind === "temporary" ? (["CRUD0233"] as const) : kind === "permanent" ? (["CRUD0234"] as const) : [])],
    },
  };
}

/** The element named by the route, its format suffix aside, and the structure it was named under. */
function target(c: Context<HttpEnv>): { ref: string; options: { family: string | undefined; deadline: HttpEnv["Variables"]["deadline"] } } {
  return { ref: splitFormat(c.req.param("docid") ?? "").name, options: { family: c.req.param("family"), deadline: c.var.deadline } };
}

/** Locks on elements: `/locks/permanent`, `/locks/temporary` (read, take, release) and `/locks/` (read, release every lock). */
export function lockRoutes(): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });
  for (const base of ELEMENT_BASES) {
    for (const kind of ["permanent", "temporary"] as const) {
      const described = descriptions(base, kind);
      const path = `${base}/locks/${kind}`;
      app.get(path, describedRoute(described.read, async (c) => {
        const { ref, options } = target(c);
        return c.json(successEnvelope(await c.var.platform.locks.read(c.var.principal, ref, "one", options)));
      }));
      app.post(path, describedRoute(described.take, async (c) => {
        const { ref, options } = target(c);
        return c.json(successEnvelope(await c.var.platform.locks.take(c.var.principal, ref, kind, options)), 201);
      }));
      app.put(path, describedRoute(described.retake, async (c) => {
        const { ref, options } = target(c);
        return c.json(successEnvelope(await c.var.platform.locks.take(c.var.principal, ref, kind, options)));
      }));
      app.delete(path, describedRoute(described.release, async (c) => {
        const { ref, options } = target(c);
        return c.json(successEnvelope(await c.var.platform.locks.release(c.var.principal, ref, kind, options)));
      }));
    }
    const described = descriptions(base, "all");
    app.get(`${base}/locks`, describedRoute(described.read, async (c) => {
      const { ref, options } = target(c);
      return c.json(successEnvelope(await c.var.platform.locks.read(c.var.principal, ref, "all", options)));
    }));
    app.delete(`${base}/locks`, describedRoute(described.release, async (c) => {
      const { ref, options } = target(c);
      return c.json(successEnvelope(await c.var.platform.locks.release(c.var.principal, ref, "all", options)));
    }));
  }
  return app;
}
