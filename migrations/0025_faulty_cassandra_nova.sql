ALTER TABLE `realms` ADD `icon_source` text DEFAULT 'G' NOT NULL;--> statement-breakpoint
ALTER TABLE `realms` ADD `icon_version` integer DEFAULT 0 NOT NULL;