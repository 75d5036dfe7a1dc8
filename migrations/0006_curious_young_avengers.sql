CREATE TABLE `user_statuses` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`away` integer DEFAULT false NOT NULL,
	`status_text` text DEFAULT '' NOT NULL,
	`emoji_name` text DEFAULT '' NOT NULL,
	`emoji_code` text DEFAULT '' NOT NULL,
	`reaction_type` text DEFAULT '' NOT NULL,
	`timestamp` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `alert_words` (
	`user_id` integer NOT NULL,
	`word` text NOT NULL,
	PRIMARY KEY(`user_id`, `word`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `muted_users` (
	`user_id` integer NOT NULL,
	`muted_user_id` integer NOT NULL,
	`date_muted` integer NOT NULL,
	PRIMARY KEY(`user_id`, `muted_user_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`muted_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `profile_field_values` (
	`user_id` integer NOT NULL,
	`field_id` integer NOT NULL,
	`value` text NOT NULL,
	PRIMARY KEY(`user_id`, `field_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`field_id`) REFERENCES `profile_fields`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `profile_field_values_field` ON `profile_field_values` (`field_id`);--> statement-breakpoint
CREATE TABLE `profile_fields` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`realm_id` integer NOT NULL,
	`name` text NOT NULL,
	`hint` text DEFAULT '' NOT NULL,
	`type` integer NOT NULL,
	`field_data` text DEFAULT '' NOT NULL,
	`order` integer NOT NULL,
	`display_in_profile_summary` integer DEFAULT false NOT NULL,
	`required` integer DEFAULT false NOT NULL,
	`editable_by_user` integer DEFAULT true NOT NULL,
	FOREIGN KEY (`realm_id`) REFERENCES `realms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `profile_fields_realm_name` ON `profile_fields` (`realm_id`,`name`);