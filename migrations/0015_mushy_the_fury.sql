CREATE TABLE `ext_widget_documents` (
	`install_id` integer NOT NULL,
	`widget` text NOT NULL,
	`link_id` integer NOT NULL,
	`item` text NOT NULL,
	`document` text NOT NULL,
	`version` integer NOT NULL,
	`date_updated` integer NOT NULL,
	PRIMARY KEY(`install_id`, `widget`, `link_id`, `item`),
	FOREIGN KEY (`install_id`) REFERENCES `ext_plugins`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `ext_widget_documents_link` ON `ext_widget_documents` (`link_id`);--> statement-breakpoint
CREATE TABLE `ext_widget_preferences` (
	`user_id` integer NOT NULL,
	`install_id` integer NOT NULL,
	`widget` text NOT NULL,
	`shown` integer,
	`position` integer,
	`label` text,
	`filters` text,
	`alerts` text,
	`in_column` integer,
	`rest_figure` text,
	`seen` integer,
	PRIMARY KEY(`user_id`, `install_id`, `widget`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`install_id`) REFERENCES `ext_plugins`(`id`) ON UPDATE no action ON DELETE no action
);
