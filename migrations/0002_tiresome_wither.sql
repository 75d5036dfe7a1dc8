CREATE TABLE `linkifiers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`realm_id` integer NOT NULL,
	`pattern` text NOT NULL,
	`url_template` text NOT NULL,
	`order` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`realm_id`) REFERENCES `realms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `linkifiers_realm_pattern` ON `linkifiers` (`realm_id`,`pattern`);--> statement-breakpoint
CREATE INDEX `linkifiers_realm` ON `linkifiers` (`realm_id`);