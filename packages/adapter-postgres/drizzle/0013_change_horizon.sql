-- Writers no longer lock the clock row: one sequence numbers the change clock's commits, the search
-- change log and the event log, and readers read up to the horizon (src/change-horizon.ts).
CREATE SEQUENCE "public"."lineage_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
-- Above every number the two sequences it replaces gave, so that readers' positions stay valid.
SELECT setval('lineage_seq', greatest((SELECT last_value FROM event_seq), (SELECT last_value FROM search_change_seq), 1),
	(SELECT is_called FROM event_seq) OR (SELECT is_called FROM search_change_seq));--> statement-breakpoint
CREATE TABLE "lineage_commits" (
	"slot" integer PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL
);
--> statement-breakpoint
-- The highest number no running write transaction can still commit below: the last number given,
-- read first, then the hold of every write transaction still running (taken at its BEGIN, keyed by
-- the last number given then: all its own numbers are above it). A writer whose hold is not seen
-- yet takes its numbers after the first read, so above the answer.
CREATE FUNCTION lineage_horizon() RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	given bigint;
	held bigint;
BEGIN
	SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END INTO given FROM lineage_seq;
	SELECT min((classid::bigint - 1279852544) * 2147483648 + objid::bigint) INTO held FROM pg_locks
	WHERE locktype = 'advisory' AND objsubid = 2 AND granted
		AND classid::bigint BETWEEN 1279852544 AND 1279852544 + 65535
		AND database = (SELECT oid FROM pg_database WHERE datname = current_database());
	RETURN least(given, held);
END $$;--> statement-breakpoint
-- The change clock's stamp: the last commit at or below the horizon, and the commits above it (read
-- by a later statement than the horizon's, so none committed before the horizon was read is missed).
-- A commit moves it (its number is above the horizon of any stamp read before it); a rollback does not.
CREATE FUNCTION lineage_clock_stamp(OUT data text, OUT definitions text) LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	horizon bigint;
BEGIN
	horizon := lineage_horizon();
	SELECT coalesce(max(seq) FILTER (WHERE seq <= horizon), 0)::text
		|| coalesce(':' || string_agg(seq::text, ',' ORDER BY seq) FILTER (WHERE seq > horizon), '') INTO data FROM lineage_commits;
	SELECT c.definitions::text INTO definitions FROM lineage_clock c WHERE id = 1;
END $$;
