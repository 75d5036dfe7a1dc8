-- Hand-written (drizzle-kit cannot declare WITHOUT ROWID or FTS5 tables); registered in the journal
-- by `drizzle-kit generate --custom`, so later generations keep it.
--
-- One row per user who received a message. flags is a bitmask: 1 read, 2 starred, 4 collapsed,
-- 8 mentioned, 16 stream_wildcard_mentioned, 32 topic_wildcard_mentioned, 64 has_alert_word,
-- 128 historical, 256 is_private (a direct message). WITHOUT ROWID: the table is its primary key.
CREATE TABLE `user_messages` (
	`user_id` integer NOT NULL,
	`message_id` integer NOT NULL,
	`flags` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `message_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `user_messages_message` ON `user_messages` (`message_id`);
--> statement-breakpoint
-- Partial indexes for the is:… narrows and unread counts; queries repeat these conditions verbatim.
CREATE INDEX `user_messages_unread` ON `user_messages` (`user_id`, `message_id`) WHERE (flags & 1) = 0;
--> statement-breakpoint
CREATE INDEX `user_messages_starred` ON `user_messages` (`user_id`, `message_id`) WHERE (flags & 2) != 0;
--> statement-breakpoint
CREATE INDEX `user_messages_mentioned` ON `user_messages` (`user_id`, `message_id`) WHERE (flags & 56) != 0;
--> statement-breakpoint
CREATE INDEX `user_messages_alerted` ON `user_messages` (`user_id`, `message_id`) WHERE (flags & 64) != 0;
--> statement-breakpoint
CREATE INDEX `user_messages_private` ON `user_messages` (`user_id`, `message_id`) WHERE (flags & 256) != 0;
--> statement-breakpoint
-- Full-text index of each message's topic and visible text (rowid = message id). Contentless: the
-- text lives in messages; the application writes the index alongside each send, edit and delete.
-- porter + unicode61: English stemming and case/diacritic folding, as Zulip's english search config.
CREATE VIRTUAL TABLE `messages_fts` USING fts5(
	topic, body, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2'
);
