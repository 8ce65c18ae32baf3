-- Full-text indexes read the event log now: the search change log goes. Every domain's generation is
-- raised, so an index written before (its position numbered in the old log) is built again from the
-- elements, with the changes that were still pending in the old log.
DROP TABLE IF EXISTS `search_changes`;
--> statement-breakpoint
UPDATE `search_domains` SET `generation` = `generation` + 1;
