CREATE TABLE `channels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`realm_id` integer NOT NULL,
	`recipient_id` integer NOT NULL,
	`name` text COLLATE NOCASE NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`rendered_description` text DEFAULT '' NOT NULL,
	`date_created` integer NOT NULL,
	`creator_id` integer,
	`invite_only` integer DEFAULT false NOT NULL,
	`is_web_public` integer DEFAULT false NOT NULL,
	`history_public_to_subscribers` integer DEFAULT true NOT NULL,
	`message_retention_days` integer,
	`folder_id` integer,
	`topics_policy` text DEFAULT 'inherit' NOT NULL,
	`is_archived` integer DEFAULT false NOT NULL,
	`settings` text DEFAULT '{}' NOT NULL,
	FOREIGN KEY (`realm_id`) REFERENCES `realms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `channels_realm_name` ON `channels` (`realm_id`,`name`);--> statement-breakpoint
CREATE INDEX `channels_realm` ON `channels` (`realm_id`);--> statement-breakpoint
CREATE TABLE `default_channels` (
	`realm_id` integer NOT NULL,
	`channel_id` integer NOT NULL,
	PRIMARY KEY(`realm_id`, `channel_id`)
);
--> statement-breakpoint
CREATE TABLE `dm_members` (
	`recipient_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	PRIMARY KEY(`user_id`, `recipient_id`)
);
--> statement-breakpoint
CREATE TABLE `recipients` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`realm_id` integer NOT NULL,
	`channel_id` integer,
	`dm_key` text,
	FOREIGN KEY (`realm_id`) REFERENCES `realms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `recipients_channel` ON `recipients` (`channel_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `recipients_dm_key` ON `recipients` (`dm_key`);--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`user_id` integer NOT NULL,
	`channel_id` integer NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`color` text NOT NULL,
	`pin_to_top` integer DEFAULT false NOT NULL,
	`is_muted` integer DEFAULT false NOT NULL,
	`desktop_notifications` integer,
	`email_notifications` integer,
	`push_notifications` integer,
	`audible_notifications` integer,
	`wildcard_mentions_notify` integer,
	PRIMARY KEY(`user_id`, `channel_id`)
);
--> statement-breakpoint
CREATE INDEX `subscriptions_channel` ON `subscriptions` (`channel_id`,`active`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`realm_id` integer NOT NULL,
	`sender_id` integer NOT NULL,
	`recipient_id` integer NOT NULL,
	`topic` text COLLATE NOCASE DEFAULT '' NOT NULL,
	`content` text NOT NULL,
	`rendered_content` text NOT NULL,
	`date_sent` integer NOT NULL,
	`client` text DEFAULT 'API' NOT NULL,
	`edit_history` text,
	`last_edit_time` integer,
	`last_moved_time` integer,
	`has_link` integer DEFAULT false NOT NULL,
	`has_image` integer DEFAULT false NOT NULL,
	`has_attachment` integer DEFAULT false NOT NULL,
	`is_me_message` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX `messages_recipient_topic` ON `messages` (`recipient_id`,`topic`,`id`);--> statement-breakpoint
CREATE INDEX `messages_recipient` ON `messages` (`recipient_id`,`id`);--> statement-breakpoint
CREATE INDEX `messages_sender` ON `messages` (`sender_id`,`id`);--> statement-breakpoint
CREATE TABLE `user_topics` (
	`user_id` integer NOT NULL,
	`channel_id` integer NOT NULL,
	`topic` text COLLATE NOCASE NOT NULL,
	`visibility_policy` integer NOT NULL,
	`last_updated` integer NOT NULL,
	PRIMARY KEY(`user_id`, `channel_id`, `topic`)
);
--> statement-breakpoint
CREATE TABLE `reactions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`message_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`emoji_name` text NOT NULL,
	`emoji_code` text NOT NULL,
	`reaction_type` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reactions_unique` ON `reactions` (`message_id`,`user_id`,`reaction_type`,`emoji_code`);