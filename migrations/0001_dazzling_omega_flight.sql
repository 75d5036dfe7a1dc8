CREATE TABLE `presences` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`realm_id` integer NOT NULL,
	`last_connected_time` integer NOT NULL,
	`last_active_time` integer,
	`last_update_id` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`realm_id`) REFERENCES `realms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `presences_realm_update` ON `presences` (`realm_id`,`last_update_id`);