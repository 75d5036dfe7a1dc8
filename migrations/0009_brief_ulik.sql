CREATE TABLE `bot_services` (
	`bot_id` integer PRIMARY KEY NOT NULL,
	`base_url` text NOT NULL,
	`token` text NOT NULL,
	`interface` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`bot_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `client_devices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`date_created` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `client_devices_user` ON `client_devices` (`user_id`);