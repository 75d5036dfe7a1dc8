CREATE TABLE `realm_emoji` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`realm_id` integer NOT NULL,
	`name` text NOT NULL,
	`author_id` integer,
	`file_name` text NOT NULL,
	`deactivated` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`realm_id`) REFERENCES `realms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `realm_emoji_realm_name` ON `realm_emoji` (`realm_id`,`name`);