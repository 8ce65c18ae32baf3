-- An element's events in seq order (its history's changes), without reading the whole log.
CREATE INDEX `events_initid_idx` ON `events` (`initid`,`seq`);
