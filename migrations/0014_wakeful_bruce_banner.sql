CREATE TABLE `ext_agent_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`realm_id` integer NOT NULL,
	`requested_by` integer,
	`channel_id` integer,
	`recipient_id` integer NOT NULL,
	`topic` text COLLATE NOCASE DEFAULT '' NOT NULL,
	`message_id` integer NOT NULL,
	`state` text NOT NULL,
	`turns` integer DEFAULT 0 NOT NULL,
	`date_started` integer NOT NULL,
	`date_ended` integer,
	`exit_status` integer,
	`key_hash` text,
	FOREIGN KEY (`realm_id`) REFERENCES `realms`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`requested_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`channel_id`) REFERENCES `channels`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `ext_agent_runs_conversation` ON `ext_agent_runs` (`recipient_id`,`topic`,`state`);--> statement-breakpoint
CREATE INDEX `ext_agent_runs_realm` ON `ext_agent_runs` (`realm_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `ext_agent_runs_key` ON `ext_agent_runs` (`key_hash`);--> statement-breakpoint
CREATE TABLE `ext_workspaces` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`uuid` text NOT NULL,
	`realm_id` integer NOT NULL,
	`repository_id` integer NOT NULL,
	`channel_id` integer NOT NULL,
	`topic` text COLLATE NOCASE NOT NULL,
	`branch` text NOT NULL,
	`created_by` integer,
	`date_created` integer NOT NULL,
	FOREIGN KEY (`realm_id`) REFERENCES `realms`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`repository_id`) REFERENCES `ext_repositories`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`channel_id`) REFERENCES `channels`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ext_workspaces_uuid_unique` ON `ext_workspaces` (`uuid`);--> statement-breakpoint
CREATE UNIQUE INDEX `ext_workspaces_topic` ON `ext_workspaces` (`channel_id`,`topic`);