CREATE TABLE `ext_plugin_links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`install_id` integer NOT NULL,
	`kind` text NOT NULL,
	`value` text NOT NULL,
	`stream_id` integer NOT NULL,
	`topic` text,
	FOREIGN KEY (`install_id`) REFERENCES `ext_plugins`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`stream_id`) REFERENCES `channels`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `ext_plugin_links_install` ON `ext_plugin_links` (`install_id`);--> statement-breakpoint
CREATE TABLE `ext_plugin_secrets` (
	`install_id` integer NOT NULL,
	`name` text NOT NULL,
	`sealed` text NOT NULL,
	`hint` text NOT NULL,
	`set_by` integer,
	`date_set` integer NOT NULL,
	PRIMARY KEY(`install_id`, `name`),
	FOREIGN KEY (`install_id`) REFERENCES `ext_plugins`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`set_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `ext_plugins` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`realm_id` integer NOT NULL,
	`plugin` text NOT NULL,
	`name` text NOT NULL,
	`version` text NOT NULL,
	`source_kind` text NOT NULL,
	`source` text DEFAULT '' NOT NULL,
	`source_repository_id` integer,
	`source_path` text DEFAULT '' NOT NULL,
	`sha` text DEFAULT '' NOT NULL,
	`manifest` text NOT NULL,
	`state` text NOT NULL,
	`detail` text DEFAULT '' NOT NULL,
	`bot_user_id` integer NOT NULL,
	`installed_by` integer,
	`made_by` integer,
	`made_by_run_id` integer,
	`made_in_stream_id` integer,
	`made_in_topic` text,
	`made_in_message_id` integer,
	`settings` text DEFAULT '{}' NOT NULL,
	`disabled` integer DEFAULT false NOT NULL,
	`widget_defaults` text DEFAULT '{}' NOT NULL,
	`disabled_tools` text DEFAULT '[]' NOT NULL,
	`date_installed` integer NOT NULL,
	`date_removed` integer,
	`revision` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`realm_id`) REFERENCES `realms`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`source_repository_id`) REFERENCES `ext_repositories`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`bot_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`installed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`made_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `ext_plugins_realm` ON `ext_plugins` (`realm_id`);--> statement-breakpoint
CREATE INDEX `ext_plugins_bot` ON `ext_plugins` (`bot_user_id`);