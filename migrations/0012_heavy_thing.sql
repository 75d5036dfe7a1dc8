CREATE TABLE `ext_repositories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`realm_id` integer NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`created_by` integer,
	`date_created` integer NOT NULL,
	`head` text DEFAULT '' NOT NULL,
	`date_updated` integer,
	FOREIGN KEY (`realm_id`) REFERENCES `realms`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ext_repositories_realm_name` ON `ext_repositories` (`realm_id`,lower("name"));