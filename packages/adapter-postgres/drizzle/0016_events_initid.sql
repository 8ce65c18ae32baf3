-- An element's events in seq order (its history's changes), without reading the whole log.
CREATE INDEX IF NOT EXISTS "events_initid_idx" ON "events" USING btree ("initid","seq");
