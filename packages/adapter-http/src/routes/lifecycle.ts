import { Hono, type Context } from "hono";
import { LineageError, readStateChangeBody, type StateChangeInput, type TransitionMessage } from "@lineage/core";
import { successEnvelope, type EnvelopeMessage } from "../envelope.ts";
import type { HttpEnv } from "../http-env.ts";
import { readJsonBody } from "../request-body.ts";
import { splitFormat } from "../resource-name.ts";

/** The two homes of an element's lifecycle collection. */
const LIFECYCLE_BASES = ["/smart-elements/:docid/workflows", "/smart-structures/:family/smart-elements/:docid/workflows"] as const;

/** allStates=1 (AP4 reads allState): any value but empty, 0, false or no. */
function isSet(value: string | undefined): boolean {
  return value !== undefined && !["", "0", "false", "no"].includes(value.trim().toLowerCase());
}

/** The comment and parameters of a POST: an empty body is none, else a JSON object. */
async function readStateChange(c: Context): Promise<StateChangeInput> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  const type = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (type !== "" && type !== "application/json" && !type.endsWith("+json")) throw new LineageError("API0012", [type]);
  return readStateChangeBody(await readJsonBody(c));
}

/** Messages of hooks m2 and m3 as envelope messages. */
function transitionMessages(messages: readonly TransitionMessage[]): EnvelopeMessage[] {
  return messages.map((m) => ({ type: m.level === "warning" ? "warning" : "message", code: "WORKFLOW_TRANSITION", contentText: m.text }));
}

/**
 * The Lifecycle collection (api-v2.md, Lifecycle collection) under
 * /api/v2/smart-elements/<docid>/workflows/ and its smart-structures/<family>/ variant.
 */
export function lifecycleRoutes(): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });
  for (const base of LIFECYCLE_BASES) {
    const target = (c: Context<HttpEnv>) => ({ ref: c.req.param("docid") ?? "", options: { family: c.req.param("family") } });
    const last = (c: Context<HttpEnv>, name: string) => splitFormat(c.req.param(name) ?? "").name;

    app.get(`${base}/states`, (c) => {
      const { ref, options } = target(c);
      const all = isSet(c.req.query("allStates") ?? c.req.query("allState"));
      return c.json(successEnvelope(c.var.platform.lifecycle.listStates(c.var.principal, ref, { ...options, all })));
    });
    app.get(`${base}/states/:state`, (c) => {
      const { ref, options } = target(c);
      return c.json(successEnvelope(c.var.platform.lifecycle.readState(c.var.principal, ref, last(c, "state"), options)));
    });
    app.post(`${base}/states/:state`, async (c) => {
      const { ref, options } = target(c);
      const state = last(c, "state");
      const input = await readStateChange(c);
      const result = await c.var.platform.lifecycle.changeStateTo(c.var.principal, ref, state, input, options);
      return c.json(successEnvelope(result.data, transitionMessages(result.messages)));
    });
    app.get(`${base}/transitions`, (c) => {
      const { ref, options } = target(c);
      return c.json(successEnvelope(c.var.platform.lifecycle.listTransitions(c.var.principal, ref, options)));
    });
    app.get(`${base}/transitions/:transition`, (c) => {
      const { ref, options } = target(c);
      return c.json(successEnvelope(c.var.platform.lifecycle.readTransition(c.var.principal, ref, last(c, "transition"), options)));
    });
    app.post(`${base}/transitions/:transition`, async (c) => {
      const { ref, options } = target(c);
      const transition = last(c, "transition");
      const input = await readStateChange(c);
      const result = await c.var.platform.lifecycle.runTransition(c.var.principal, ref, transition, input, options);
      return c.json(successEnvelope(result.data, transitionMessages(result.messages)));
    });
  }
  return app;
}
