-- The pending deliveries in the order a claim takes them (due time, then seq): a claim reads the first few and stops,
-- where an index of the due time alone left every pending delivery of the same due time to sort first.
DROP INDEX IF EXISTS "webhook_deliveries_due_idx";--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at","seq") WHERE "webhook_deliveries"."status" = 'pending';
