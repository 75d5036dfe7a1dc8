CREATE TABLE `realm_exports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`realm_id` integer NOT NULL,
	`acting_user_id` integer,
	`export_type` integer NOT NULL,
	`date_requested` real NOT NULL,
	`date_succeeded` real,
	`date_failed` real,
	`date_deleted` real,
	`path` text
);
--> statement-breakpoint
CREATE INDEX `realm_exports_realm` ON `realm_exports` (`realm_id`);