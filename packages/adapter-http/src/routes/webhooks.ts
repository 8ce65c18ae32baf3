import { DELIVERY_STATUSES, EVENT_TYPES, WEBHOOK_STATUSES, WebhookInputSchema, type ErrorCode } from "@lineage/core";
import { Hono } from "hono";
import * as v from "valibot";
import { successEnvelope } from "../envelope.ts";
import type { HttpEnv } from "../http-env.ts";
import { describedRoute, type RouteDescription } from "../openapi/index.ts";
import { readJsonBody } from "../request-body.ts";

const TAG = "Webhooks";
const PATH = "/api/admin/webhooks";
const ADMIN_ERRORS: readonly ErrorCode[] = ["ROUTES0131"];

const time = (what: string) => v.pipe(v.string(), v.description(`${what} (ISO 8601)`));
const nullableTime = (what: string) => v.nullable(time(what));

const DeliverySchema = v.object({
  id: v.pipe(v.string(), v.description("The delivery's id: the `webhook-id` header of each of its attempts")),
  seq: v.pipe(v.number(), v.description("The seq of its event")),
  type: v.picklist(EVENT_TYPES),
  status: v.picklist(DELIVERY_STATUSES),
  attempts: v.pipe(v.number(), v.description("Attempts made so far")),
  lastStatusCode: v.pipe(v.nullable(v.number()), v.description("The HTTP status of the last attempt; null when none came (timeout, refused connection)")),
  lastError: v.pipe(v.nullable(v.string()), v.description("Why the last attempt failed; null after a success")),
  createdAt: time("When the event was queued for this webhook"),
  updatedAt: time("Its last change"),
  nextAttemptAt: nullableTime("When a pending delivery is tried next"),
  deliveredAt: nullableTime("When a 2xx answer came"),
});
const AttemptSchema = v.object({
  attempt: v.number(), node: v.pipe(v.string(), v.description("The node that sent it")), startedAt: time("When it started"),
  endedAt: nullableTime("When it ended; null while under way"), statusCode: v.nullable(v.number()), error: v.nullable(v.string()),
});
const DeliveryDetailSchema = v.object({ ...DeliverySchema.entries, attemptLog: v.pipe(v.array(AttemptSchema), v.description("Its attempts, oldest first")) });
const WebhookFields = {
  id: v.pipe(v.string(), v.description("The webhook's id"), v.examples(["wh_0f3a9c1d2b4e5f60"])),
  url: v.string(),
  types: v.pipe(v.array(v.picklist(EVENT_TYPES)), v.description("The event types it receives; empty: every type")),
  structures: v.pipe(v.array(v.string()), v.description("The structures whose events it receives; empty: every structure")),
  description: v.string(),
};
const WebhookSchema = v.object({
  ...WebhookFields,
  status: v.pipe(v.picklist(WEBHOOK_STATUSES), v.description("active; failing (its last attempt failed); disabled (a delivery failed for 24 hours: nothing is sent until a retry)")),
  createdAt: time("When it was registered"),
  lastDelivery: v.pipe(v.nullable(DeliverySchema), v.description("Its latest delivery (by seq); null before the first")),
});
const CreatedSchema = v.object({
  ...WebhookFields,
  secret: v.pipe(v.string(), v.description("`whsec_` and the base64 key of the signatures: shown this once"), v.examples(["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"])),
});
const WebhookParams = { id: v.pipe(v.string(), v.description("The webhook's id (GET /api/admin/webhooks/ lists them)")) };

const DESCRIBED: Record<"create" | "list" | "remove" | "deliveries" | "retry", RouteDescription> = {
  create: {
    tag: TAG, summary: "Register a webhook (administrators)",
    description: "Every event committed from now on that matches `types` and `structures` is POSTed to `url` as JSON (the event as an administrator " +
      "sees it), signed with the Standard Webhooks headers `webhook-id`, `webhook-timestamp` and `webhook-signature`. The answer's `secret` is shown " +
      "once. A URL whose host resolves to a loopback, private or link-local address is refused unless the configuration sets " +
      "`webhooks.allowPrivateNetworks: true`.",
    body: { content: { "application/json": WebhookInputSchema }, required: true },
    response: { status: 201, data: CreatedSchema },
    errors: ["WEBHOOK0400", "API0009", ...ADMIN_ERRORS],
  },
  list: {
    tag: TAG, summary: "List the webhooks (administrators)", description: "Every webhook, oldest first, without its secret, with its status and its latest delivery.",
    response: { data: v.object({ webhooks: v.array(WebhookSchema) }) }, errors: ADMIN_ERRORS,
  },
  remove: {
    tag: TAG, summary: "Remove a webhook (administrators)", description: "Removes it with its deliveries: nothing more is sent to it.",
    params: WebhookParams, response: { data: v.object({ id: v.string(), removed: v.literal(true) }) }, errors: ["WEBHOOK0404", ...ADMIN_ERRORS],
  },
  deliveries: {
    tag: TAG, summary: "A webhook's recent deliveries (administrators)",
    description: "Its latest deliveries, newest first (at most 100), each with its attempts: status code or error, node, times.",
    params: WebhookParams, response: { data: v.object({ deliveries: v.array(DeliveryDetailSchema) }) }, errors: ["WEBHOOK0404", ...ADMIN_ERRORS],
  },
  retry: {
    tag: TAG, summary: "Deliver again now (administrators)",
    description: "The delivery becomes pending and due at once, for a new 24-hour window of retries; a disabled webhook is enabled again.",
    params: { ...WebhookParams, delivery: v.pipe(v.string(), v.description("The delivery's id")) },
    response: { data: v.object({ delivery: DeliveryDetailSchema }) }, errors: ["WEBHOOK0404", ...ADMIN_ERRORS],
  },
};

/** The webhooks' administration under /api/admin/webhooks/ (administrators only). Mount at the server root. */
export function webhookRoutes(): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });
  app.post(PATH, describedRoute(DESCRIBED.create, async (c) => {
    const created = await c.var.platform.webhooks.create(c.var.principal, await readJsonBody(c));
    return c.json(successEnvelope(created), 201);
  }));
  app.get(PATH, describedRoute(DESCRIBED.list, async (c) => c.json(successEnvelope({ webhooks: await c.var.platform.webhooks.list(c.var.principal) }))));
  app.delete(`${PATH}/:id`, describedRoute(DESCRIBED.remove, async (c) => {
    const id = (c.req.param("id") ?? "");
    await c.var.platform.webhooks.remove(c.var.principal, id);
    return c.json(successEnvelope({ id, removed: true as const }));
  }));
  app.get(`${PATH}/:id/deliveries`, describedRoute(DESCRIBED.deliveries, async (c) =>
    c.json(successEnvelope({ deliveries: await c.var.platform.webhooks.deliveries(c.var.principal, (c.req.param("id") ?? "")) }))));
  app.post(`${PATH}/:id/deliveries/:delivery/retry`, describedRoute(DESCRIBED.retry, async (c) => {
    const delivery = await c.var.platform.webhooks.retry(c.var.principal, (c.req.param("id") ?? ""), (c.req.param("delivery") ?? ""));
    return c.json(successEnvelope({ delivery }));
  }));
  return app;
}
