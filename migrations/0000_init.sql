CREATE TABLE `realms` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`string_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`date_created` integer NOT NULL,
	`deactivated` integer DEFAULT false NOT NULL,
	`settings` text DEFAULT '{}' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `realms_string_id_unique` ON `realms` (`string_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`realm_id` integer NOT NULL,
	`email` text NOT NULL,
	`full_name` text NOT NULL,
	`role` integer NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`is_bot` integer DEFAULT false NOT NULL,
	`bot_type` integer,
	`bot_owner_id` integer,
	`api_key` text NOT NULL,
	`password_hash` text,
	`date_joined` integer NOT NULL,
	`timezone` text DEFAULT '' NOT NULL,
	`avatar_source` text DEFAULT 'G' NOT NULL,
	`avatar_version` integer DEFAULT 1 NOT NULL,
	`last_active` integer,
	`settings` text DEFAULT '{}' NOT NULL,
	FOREIGN KEY (`realm_id`) REFERENCES `realms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_api_key_unique` ON `users` (`api_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_realm_email` ON `users` (`realm_id`,lower("email"));--> statement-breakpoint
CREATE INDEX `users_realm` ON `users` (`realm_id`);--> statement-breakpoint
CREATE TABLE `user_group_members` (
	`group_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	PRIMARY KEY(`group_id`, `user_id`),
	FOREIGN KEY (`group_id`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `user_group_members_user` ON `user_group_members` (`user_id`);--> statement-breakpoint
CREATE TABLE `user_group_subgroups` (
	`group_id` integer NOT NULL,
	`subgroup_id` integer NOT NULL,
	PRIMARY KEY(`group_id`, `subgroup_id`),
	FOREIGN KEY (`group_id`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`subgroup_id`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `user_group_subgroups_sub` ON `user_group_subgroups` (`subgroup_id`);--> statement-breakpoint
CREATE TABLE `user_groups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`realm_id` integer NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`is_system_group` integer DEFAULT false NOT NULL,
	`deactivated` integer DEFAULT false NOT NULL,
	`date_created` integer,
	`creator_id` integer,
	`settings` text DEFAULT '{}' NOT NULL,
	FOREIGN KEY (`realm_id`) REFERENCES `realms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_groups_realm_name` ON `user_groups` (`realm_id`,`name`);