CREATE TABLE `scheduled_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`realm_id` integer NOT NULL,
	`sender_id` integer NOT NULL,
	`kind` text NOT NULL,
	`type` text NOT NULL,
	`to` text NOT NULL,
	`topic` text NOT NULL,
	`content` text NOT NULL,
	`rendered_content` text NOT NULL,
	`scheduled_at` integer NOT NULL,
	`read_by_sender` integer NOT NULL,
	`client` text NOT NULL,
	`reminder_target_message_id` integer,
	`reminder_note` text,
	`delivered` integer DEFAULT false NOT NULL,
	`delivered_message_id` integer,
	`failed` integer DEFAULT false NOT NULL,
	`failure_message` text,
	FOREIGN KEY (`realm_id`) REFERENCES `realms`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`sender_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `scheduled_messages_due` ON `scheduled_messages` (`delivered`,`failed`,`scheduled_at`);--> statement-breakpoint
CREATE INDEX `scheduled_messages_sender` ON `scheduled_messages` (`sender_id`);--> statement-breakpoint
CREATE TABLE `submessages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`message_id` integer NOT NULL,
	`sender_id` integer NOT NULL,
	`msg_type` text NOT NULL,
	`content` text NOT NULL,
	FOREIGN KEY (`sender_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `submessages_message` ON `submessages` (`message_id`);--> statement-breakpoint
CREATE TABLE `realm_playgrounds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`realm_id` integer NOT NULL,
	`name` text NOT NULL,
	`pygments_language` text NOT NULL,
	`url_template` text NOT NULL,
	FOREIGN KEY (`realm_id`) REFERENCES `realms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `realm_playgrounds_name` ON `realm_playgrounds` (`realm_id`,`pygments_language`,`name`);--> statement-breakpoint
CREATE TABLE `bot_storage` (
	`user_id` integer NOT NULL,
	`key` text NOT NULL,
	`value` text NOT NULL,
	PRIMARY KEY(`user_id`, `key`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `push_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`token` text NOT NULL,
	`ios_app_id` text,
	`last_updated` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `push_tokens_unique` ON `push_tokens` (`user_id`,`kind`,`token`);--> statement-breakpoint
CREATE INDEX `push_tokens_token` ON `push_tokens` (`token`);