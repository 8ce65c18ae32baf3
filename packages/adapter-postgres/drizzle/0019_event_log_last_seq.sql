-- The event log's last seq up to the horizon in one round trip: the horizon, then, by a later
-- statement of the function (a snapshot taken after it, as lineage_clock_stamp() does), the last
-- event at or below it, or the last one pruned.
CREATE FUNCTION lineage_last_event_seq() RETURNS float8 LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	horizon bigint;
	last float8;
BEGIN
	horizon := lineage_horizon();
	SELECT greatest(coalesce((SELECT max(seq) FROM events WHERE seq <= horizon), 0), coalesce((SELECT seq FROM events_pruned WHERE id = 1), 0))::float8 INTO last;
	RETURN last;
END $$;
