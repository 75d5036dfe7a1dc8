CREATE TABLE `invites` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`realm_id` integer NOT NULL,
	`referred_by` integer NOT NULL,
	`is_multiuse` integer NOT NULL,
	`email` text,
	`key` text NOT NULL,
	`invited_as` integer NOT NULL,
	`stream_ids` text NOT NULL,
	`group_ids` text NOT NULL,
	`include_realm_default_subscriptions` integer NOT NULL,
	`welcome_message_custom_text` text,
	`notify_referrer_on_join` integer DEFAULT false NOT NULL,
	`date_created` integer NOT NULL,
	`expires_at` integer,
	`status` text DEFAULT 'active' NOT NULL,
	FOREIGN KEY (`realm_id`) REFERENCES `realms`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`referred_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invites_key` ON `invites` (`key`);--> statement-breakpoint
CREATE INDEX `invites_realm` ON `invites` (`realm_id`);