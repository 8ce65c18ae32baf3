DROP INDEX `elements_by_id_idx`;--> statement-breakpoint
DROP INDEX `elements_by_structure_idx`;--> statement-breakpoint
DROP INDEX `elements_by_structure_desc_idx`;--> statement-breakpoint
CREATE INDEX `elements_by_id_idx` ON `elements` (`status`,"id" desc,`structure`,`profile`,`owner`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_by_structure_idx` ON `elements` (`status`,`structure`,"id" desc,`profile`,`owner`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_by_structure_desc_idx` ON `elements` (`status`,"structure" desc,"id" desc,`profile`,`owner`) WHERE fixed = 0;