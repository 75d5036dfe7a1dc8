CREATE TABLE `attachments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`realm_id` integer NOT NULL,
	`owner_id` integer NOT NULL,
	`path_id` text NOT NULL,
	`name` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`create_time` integer NOT NULL,
	`unreferenced_since` integer,
	FOREIGN KEY (`realm_id`) REFERENCES `realms`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `attachments_path_id_unique` ON `attachments` (`path_id`);--> statement-breakpoint
CREATE INDEX `attachments_owner` ON `attachments` (`owner_id`);--> statement-breakpoint
CREATE INDEX `attachments_realm` ON `attachments` (`realm_id`);--> statement-breakpoint
CREATE INDEX `attachments_unreferenced` ON `attachments` (`unreferenced_since`);--> statement-breakpoint
CREATE TABLE `message_attachments` (
	`message_id` integer NOT NULL,
	`attachment_id` integer NOT NULL,
	PRIMARY KEY(`attachment_id`, `message_id`),
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`attachment_id`) REFERENCES `attachments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `message_attachments_message` ON `message_attachments` (`message_id`);