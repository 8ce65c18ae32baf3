DROP INDEX `elements_by_id_idx`;--> statement-breakpoint
DROP INDEX `elements_by_initid_idx`;--> statement-breakpoint
DROP INDEX `elements_by_structure_idx`;--> statement-breakpoint
DROP INDEX `elements_by_structure_desc_idx`;--> statement-breakpoint
DROP INDEX `elements_structure_by_initid_idx`;--> statement-breakpoint
DROP INDEX `elements_by_title_idx`;--> statement-breakpoint
DROP INDEX `elements_by_title_desc_idx`;--> statement-breakpoint
DROP INDEX `elements_structure_by_title_idx`;--> statement-breakpoint
DROP INDEX `elements_structure_by_title_desc_idx`;--> statement-breakpoint
DROP INDEX `elements_by_name_idx`;--> statement-breakpoint
DROP INDEX `elements_by_name_desc_idx`;--> statement-breakpoint
DROP INDEX `elements_structure_by_name_idx`;--> statement-breakpoint
DROP INDEX `elements_structure_by_name_desc_idx`;--> statement-breakpoint
DROP INDEX `elements_by_revision_idx`;--> statement-breakpoint
DROP INDEX `elements_by_revision_desc_idx`;--> statement-breakpoint
DROP INDEX `elements_structure_by_revision_idx`;--> statement-breakpoint
DROP INDEX `elements_structure_by_revision_desc_idx`;--> statement-breakpoint
DROP INDEX `elements_by_owner_idx`;--> statement-breakpoint
DROP INDEX `elements_by_owner_desc_idx`;--> statement-breakpoint
DROP INDEX `elements_structure_by_owner_idx`;--> statement-breakpoint
DROP INDEX `elements_structure_by_owner_desc_idx`;--> statement-breakpoint
DROP INDEX `elements_by_state_idx`;--> statement-breakpoint
DROP INDEX `elements_by_state_desc_idx`;--> statement-breakpoint
DROP INDEX `elements_structure_by_state_idx`;--> statement-breakpoint
DROP INDEX `elements_structure_by_state_desc_idx`;--> statement-breakpoint
DROP INDEX `elements_by_cdate_idx`;--> statement-breakpoint
DROP INDEX `elements_by_cdate_desc_idx`;--> statement-breakpoint
DROP INDEX `elements_structure_by_cdate_idx`;--> statement-breakpoint
DROP INDEX `elements_structure_by_cdate_desc_idx`;--> statement-breakpoint
DROP INDEX `elements_by_mdate_idx`;--> statement-breakpoint
DROP INDEX `elements_by_mdate_desc_idx`;--> statement-breakpoint
DROP INDEX `elements_structure_by_mdate_idx`;--> statement-breakpoint
DROP INDEX `elements_structure_by_mdate_desc_idx`;--> statement-breakpoint
DROP INDEX `elements_by_fromid_idx`;--> statement-breakpoint
DROP INDEX `elements_by_fromid_desc_idx`;--> statement-breakpoint
ALTER TABLE `elements` ADD `own_profile` text;--> statement-breakpoint
ALTER TABLE `elements` ADD `profile` text;--> statement-breakpoint
CREATE INDEX `elements_by_id_idx` ON `elements` (`status`,"id" desc,`structure`,`profile`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_by_initid_idx` ON `elements` (`status`,`initid`,`structure`,`profile`,`owner`,`state`,`revision`,`name`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_by_structure_idx` ON `elements` (`status`,`structure`,"id" desc,`profile`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_by_structure_desc_idx` ON `elements` (`status`,"structure" desc,"id" desc,`profile`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_structure_by_initid_idx` ON `elements` (`status`,`structure`,`initid`,`owner`,`state`,`revision`,`name`,`profile`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_by_title_idx` ON `elements` (`status`,`title`,"id" desc,`structure`,`profile`,`owner`,`state`,`revision`,`name`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_by_title_desc_idx` ON `elements` (`status`,"title" desc,"id" desc,`structure`,`profile`,`owner`,`state`,`revision`,`name`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_structure_by_title_idx` ON `elements` (`status`,`structure`,`title`,"id" desc,`owner`,`state`,`revision`,`name`,`profile`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_structure_by_title_desc_idx` ON `elements` (`status`,`structure`,"title" desc,"id" desc,`owner`,`state`,`revision`,`name`,`profile`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_by_name_idx` ON `elements` (`status`,`name`,"id" desc,`structure`,`profile`,`owner`,`state`,`revision`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_by_name_desc_idx` ON `elements` (`status`,"name" desc,"id" desc,`structure`,`profile`,`owner`,`state`,`revision`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_structure_by_name_idx` ON `elements` (`status`,`structure`,`name`,"id" desc,`owner`,`state`,`revision`,`profile`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_structure_by_name_desc_idx` ON `elements` (`status`,`structure`,"name" desc,"id" desc,`owner`,`state`,`revision`,`profile`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_by_revision_idx` ON `elements` (`status`,`revision`,"id" desc,`structure`,`profile`,`owner`,`state`,`name`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_by_revision_desc_idx` ON `elements` (`status`,"revision" desc,"id" desc,`structure`,`profile`,`owner`,`state`,`name`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_structure_by_revision_idx` ON `elements` (`status`,`structure`,`revision`,"id" desc,`owner`,`state`,`name`,`profile`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_structure_by_revision_desc_idx` ON `elements` (`status`,`structure`,"revision" desc,"id" desc,`owner`,`state`,`name`,`profile`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_by_owner_idx` ON `elements` (`status`,`owner`,"id" desc,`structure`,`profile`,`state`,`revision`,`name`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_by_owner_desc_idx` ON `elements` (`status`,"owner" desc,"id" desc,`structure`,`profile`,`state`,`revision`,`name`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_structure_by_owner_idx` ON `elements` (`status`,`structure`,`owner`,"id" desc,`state`,`revision`,`name`,`profile`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_structure_by_owner_desc_idx` ON `elements` (`status`,`structure`,"owner" desc,"id" desc,`state`,`revision`,`name`,`profile`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_by_state_idx` ON `elements` (`status`,`state`,"id" desc,`structure`,`profile`,`owner`,`revision`,`name`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_by_state_desc_idx` ON `elements` (`status`,"state" desc,"id" desc,`structure`,`profile`,`owner`,`revision`,`name`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_structure_by_state_idx` ON `elements` (`status`,`structure`,`state`,"id" desc,`owner`,`revision`,`name`,`profile`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_structure_by_state_desc_idx` ON `elements` (`status`,`structure`,"state" desc,"id" desc,`owner`,`revision`,`name`,`profile`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_by_cdate_idx` ON `elements` (`status`,`created_at`,"id" desc,`structure`,`profile`,`owner`,`state`,`revision`,`name`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_by_cdate_desc_idx` ON `elements` (`status`,"created_at" desc,"id" desc,`structure`,`profile`,`owner`,`state`,`revision`,`name`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_structure_by_cdate_idx` ON `elements` (`status`,`structure`,`created_at`,"id" desc,`owner`,`state`,`revision`,`name`,`profile`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_structure_by_cdate_desc_idx` ON `elements` (`status`,`structure`,"created_at" desc,"id" desc,`owner`,`state`,`revision`,`name`,`profile`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_by_mdate_idx` ON `elements` (`status`,`modified_at`,"id" desc,`structure`,`profile`,`owner`,`state`,`revision`,`name`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_by_mdate_desc_idx` ON `elements` (`status`,"modified_at" desc,"id" desc,`structure`,`profile`,`owner`,`state`,`revision`,`name`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_structure_by_mdate_idx` ON `elements` (`status`,`structure`,`modified_at`,"id" desc,`owner`,`state`,`revision`,`name`,`profile`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_structure_by_mdate_desc_idx` ON `elements` (`status`,`structure`,"modified_at" desc,"id" desc,`owner`,`state`,`revision`,`name`,`profile`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_by_fromid_idx` ON `elements` (`status`,`structure_id`,"id" desc,`structure`,`profile`,`owner`,`state`,`revision`,`name`) WHERE fixed = 0;--> statement-breakpoint
CREATE INDEX `elements_by_fromid_desc_idx` ON `elements` (`status`,"structure_id" desc,"id" desc,`structure`,`profile`,`owner`,`state`,`revision`,`name`) WHERE fixed = 0;