-- The change clock's one row (schema.ts, lineageClock): every write transaction locks it, so it must exist first.
INSERT INTO "lineage_clock" ("id", "data", "definitions") VALUES (1, 0, 0) ON CONFLICT DO NOTHING;
