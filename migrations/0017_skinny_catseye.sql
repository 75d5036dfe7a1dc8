ALTER TABLE `subscriptions` ADD `delivered_through` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Until now every recipient's row was written at send time: existing subscriptions have them all.
UPDATE `subscriptions` SET `delivered_through` = COALESCE((SELECT `seq` FROM `sqlite_sequence` WHERE `name` = 'messages'), 0);
