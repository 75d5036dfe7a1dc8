CREATE TABLE `ext_secrets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`realm_id` integer NOT NULL,
	`name` text NOT NULL,
	`sealed` text NOT NULL,
	`hint` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`added_by` integer,
	`date_added` integer NOT NULL,
	`replaced_by` integer,
	`date_replaced` integer,
	`date_used` integer,
	FOREIGN KEY (`realm_id`) REFERENCES `realms`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`added_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`replaced_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ext_secrets_realm_name` ON `ext_secrets` (`realm_id`,`name`);
