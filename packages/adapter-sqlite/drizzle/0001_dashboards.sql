CREATE TABLE `dashboards` (
	`slug` text PRIMARY KEY NOT NULL,
	`uuid` text NOT NULL,
	`roles` text NOT NULL
);
