CREATE TABLE `folder_members` (
	`folder_id` integer NOT NULL,
	`element_id` integer NOT NULL,
	PRIMARY KEY(`folder_id`, `element_id`)
);
--> statement-breakpoint
CREATE INDEX `folder_members_element_idx` ON `folder_members` (`element_id`,`folder_id`);