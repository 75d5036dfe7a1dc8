CREATE TABLE `channel_folders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`realm_id` integer NOT NULL,
	`name` text COLLATE NOCASE NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`rendered_description` text DEFAULT '' NOT NULL,
	`order` integer DEFAULT 0 NOT NULL,
	`creator_id` integer,
	`date_created` integer NOT NULL,
	`is_archived` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`realm_id`) REFERENCES `realms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `channel_folders_realm` ON `channel_folders` (`realm_id`);--> statement-breakpoint
-- Data fix: folder_id was stored unchecked before folders existed; no such folder exists, so no channel is in one.
UPDATE `channels` SET `folder_id` = NULL WHERE `folder_id` IS NOT NULL;
