CREATE TABLE "realms" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"string_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"date_created" bigint NOT NULL,
	"deactivated" boolean DEFAULT false NOT NULL,
	"settings" jsonb DEFAULT '{}' NOT NULL,
	CONSTRAINT "realms_string_id_unique" UNIQUE("string_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"realm_id" bigint NOT NULL,
	"email" text NOT NULL,
	"full_name" text NOT NULL,
	"role" bigint NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_bot" boolean DEFAULT false NOT NULL,
	"bot_type" bigint,
	"bot_owner_id" bigint,
	"api_key" text NOT NULL,
	"password_hash" text,
	"date_joined" bigint NOT NULL,
	"timezone" text DEFAULT '' NOT NULL,
	"avatar_source" text DEFAULT 'G' NOT NULL,
	"avatar_version" bigint DEFAULT 1 NOT NULL,
	"last_active" bigint,
	"settings" jsonb DEFAULT '{}' NOT NULL,
	CONSTRAINT "users_api_key_unique" UNIQUE("api_key")
);
--> statement-breakpoint
CREATE TABLE "user_group_members" (
	"group_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	CONSTRAINT "user_group_members_group_id_user_id_pk" PRIMARY KEY("group_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "user_group_subgroups" (
	"group_id" bigint NOT NULL,
	"subgroup_id" bigint NOT NULL,
	CONSTRAINT "user_group_subgroups_group_id_subgroup_id_pk" PRIMARY KEY("group_id","subgroup_id")
);
--> statement-breakpoint
CREATE TABLE "user_groups" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"realm_id" bigint NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_system_group" boolean DEFAULT false NOT NULL,
	"deactivated" boolean DEFAULT false NOT NULL,
	"date_created" bigint,
	"creator_id" bigint,
	"settings" jsonb DEFAULT '{}' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "realm_user_defaults" (
	"realm_id" bigint PRIMARY KEY NOT NULL,
	"settings" jsonb DEFAULT '{}' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "realm_domains" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"realm_id" bigint NOT NULL,
	"domain" text NOT NULL,
	"allow_subdomains" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "drafts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"type" text NOT NULL,
	"to" jsonb NOT NULL,
	"topic" text NOT NULL,
	"content" text NOT NULL,
	"timestamp" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_statuses" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"away" boolean DEFAULT false NOT NULL,
	"status_text" text DEFAULT '' NOT NULL,
	"emoji_name" text DEFAULT '' NOT NULL,
	"emoji_code" text DEFAULT '' NOT NULL,
	"reaction_type" text DEFAULT '' NOT NULL,
	"timestamp" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_words" (
	"user_id" bigint NOT NULL,
	"word" text NOT NULL,
	CONSTRAINT "alert_words_user_id_word_pk" PRIMARY KEY("user_id","word")
);
--> statement-breakpoint
CREATE TABLE "muted_users" (
	"user_id" bigint NOT NULL,
	"muted_user_id" bigint NOT NULL,
	"date_muted" bigint NOT NULL,
	CONSTRAINT "muted_users_user_id_muted_user_id_pk" PRIMARY KEY("user_id","muted_user_id")
);
--> statement-breakpoint
CREATE TABLE "profile_field_values" (
	"user_id" bigint NOT NULL,
	"field_id" bigint NOT NULL,
	"value" text NOT NULL,
	CONSTRAINT "profile_field_values_user_id_field_id_pk" PRIMARY KEY("user_id","field_id")
);
--> statement-breakpoint
CREATE TABLE "profile_fields" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"realm_id" bigint NOT NULL,
	"name" text NOT NULL,
	"hint" text DEFAULT '' NOT NULL,
	"type" bigint NOT NULL,
	"field_data" text DEFAULT '' NOT NULL,
	"order" bigint NOT NULL,
	"display_in_profile_summary" boolean DEFAULT false NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"editable_by_user" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saved_snippets" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"date_created" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "navigation_views" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"fragment" text NOT NULL,
	"is_pinned" boolean NOT NULL,
	"name" text
);
--> statement-breakpoint
CREATE TABLE "invites" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"realm_id" bigint NOT NULL,
	"referred_by" bigint NOT NULL,
	"is_multiuse" boolean NOT NULL,
	"email" text,
	"key" text NOT NULL,
	"invited_as" bigint NOT NULL,
	"stream_ids" jsonb NOT NULL,
	"group_ids" jsonb NOT NULL,
	"include_realm_default_subscriptions" boolean NOT NULL,
	"welcome_message_custom_text" text,
	"notify_referrer_on_join" boolean DEFAULT false NOT NULL,
	"date_created" bigint NOT NULL,
	"expires_at" bigint,
	"status" text DEFAULT 'active' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bot_services" (
	"bot_id" bigint PRIMARY KEY NOT NULL,
	"base_url" text NOT NULL,
	"token" text NOT NULL,
	"interface" bigint DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_devices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"date_created" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "presences" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"realm_id" bigint NOT NULL,
	"last_connected_time" bigint NOT NULL,
	"last_active_time" bigint,
	"last_update_id" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "linkifiers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"realm_id" bigint NOT NULL,
	"pattern" text NOT NULL,
	"url_template" text NOT NULL,
	"order" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channels" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"realm_id" bigint NOT NULL,
	"recipient_id" bigint NOT NULL,
	"name" "citext" NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"rendered_description" text DEFAULT '' NOT NULL,
	"date_created" bigint NOT NULL,
	"creator_id" bigint,
	"invite_only" boolean DEFAULT false NOT NULL,
	"is_web_public" boolean DEFAULT false NOT NULL,
	"history_public_to_subscribers" boolean DEFAULT true NOT NULL,
	"message_retention_days" bigint,
	"folder_id" bigint,
	"topics_policy" text DEFAULT 'inherit' NOT NULL,
	"is_archived" boolean DEFAULT false NOT NULL,
	"settings" jsonb DEFAULT '{}' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "default_channels" (
	"realm_id" bigint NOT NULL,
	"channel_id" bigint NOT NULL,
	CONSTRAINT "default_channels_realm_id_channel_id_pk" PRIMARY KEY("realm_id","channel_id")
);
--> statement-breakpoint
CREATE TABLE "dm_members" (
	"recipient_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	CONSTRAINT "dm_members_user_id_recipient_id_pk" PRIMARY KEY("user_id","recipient_id")
);
--> statement-breakpoint
CREATE TABLE "recipients" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"realm_id" bigint NOT NULL,
	"channel_id" bigint,
	"dm_key" text
);
--> statement-breakpoint
CREATE TABLE "channel_folders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"realm_id" bigint NOT NULL,
	"name" "citext" NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"rendered_description" text DEFAULT '' NOT NULL,
	"order" bigint DEFAULT 0 NOT NULL,
	"creator_id" bigint,
	"date_created" bigint NOT NULL,
	"is_archived" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"user_id" bigint NOT NULL,
	"channel_id" bigint NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"color" text NOT NULL,
	"pin_to_top" boolean DEFAULT false NOT NULL,
	"is_muted" boolean DEFAULT false NOT NULL,
	"desktop_notifications" boolean,
	"email_notifications" boolean,
	"push_notifications" boolean,
	"audible_notifications" boolean,
	"wildcard_mentions_notify" boolean,
	"delivered_through" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "subscriptions_user_id_channel_id_pk" PRIMARY KEY("user_id","channel_id")
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"realm_id" bigint NOT NULL,
	"sender_id" bigint NOT NULL,
	"recipient_id" bigint NOT NULL,
	"topic" "citext" DEFAULT '' NOT NULL,
	"content" text NOT NULL,
	"rendered_content" text NOT NULL,
	"date_sent" bigint NOT NULL,
	"client" text DEFAULT 'API' NOT NULL,
	"edit_history" text,
	"last_edit_time" bigint,
	"last_moved_time" bigint,
	"has_link" boolean DEFAULT false NOT NULL,
	"has_image" boolean DEFAULT false NOT NULL,
	"has_attachment" boolean DEFAULT false NOT NULL,
	"is_me_message" boolean DEFAULT false NOT NULL,
	"search_tsv" "tsvector"
);
--> statement-breakpoint
CREATE TABLE "user_messages" (
	"user_id" bigint NOT NULL,
	"message_id" bigint NOT NULL,
	"flags" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "user_messages_user_id_message_id_pk" PRIMARY KEY("user_id","message_id")
);
--> statement-breakpoint
CREATE TABLE "user_topics" (
	"user_id" bigint NOT NULL,
	"channel_id" bigint NOT NULL,
	"topic" "citext" NOT NULL,
	"visibility_policy" bigint NOT NULL,
	"last_updated" bigint NOT NULL,
	CONSTRAINT "user_topics_user_id_channel_id_topic_pk" PRIMARY KEY("user_id","channel_id","topic")
);
--> statement-breakpoint
CREATE TABLE "reactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"message_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"emoji_name" text NOT NULL,
	"emoji_code" text NOT NULL,
	"reaction_type" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ext_secrets" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"realm_id" bigint NOT NULL,
	"name" text NOT NULL,
	"sealed" text NOT NULL,
	"hint" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"added_by" bigint,
	"date_added" bigint NOT NULL,
	"replaced_by" bigint,
	"date_replaced" bigint,
	"date_used" bigint
);
--> statement-breakpoint
CREATE TABLE "realm_emoji" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"realm_id" bigint NOT NULL,
	"name" text NOT NULL,
	"author_id" bigint,
	"file_name" text NOT NULL,
	"deactivated" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ext_repositories" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"realm_id" bigint NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_by" bigint,
	"date_created" bigint NOT NULL,
	"head" text DEFAULT '' NOT NULL,
	"date_updated" bigint
);
--> statement-breakpoint
CREATE TABLE "ext_plugin_links" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"install_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"stream_id" bigint NOT NULL,
	"topic" text
);
--> statement-breakpoint
CREATE TABLE "ext_plugin_secrets" (
	"install_id" bigint NOT NULL,
	"name" text NOT NULL,
	"sealed" text NOT NULL,
	"hint" text NOT NULL,
	"set_by" bigint,
	"date_set" bigint NOT NULL,
	CONSTRAINT "ext_plugin_secrets_install_id_name_pk" PRIMARY KEY("install_id","name")
);
--> statement-breakpoint
CREATE TABLE "ext_plugins" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"realm_id" bigint NOT NULL,
	"plugin" text NOT NULL,
	"name" text NOT NULL,
	"version" text NOT NULL,
	"source_kind" text NOT NULL,
	"source" text DEFAULT '' NOT NULL,
	"source_repository_id" bigint,
	"source_path" text DEFAULT '' NOT NULL,
	"sha" text DEFAULT '' NOT NULL,
	"manifest" jsonb NOT NULL,
	"state" text NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"bot_user_id" bigint NOT NULL,
	"installed_by" bigint,
	"made_by" bigint,
	"made_by_run_id" bigint,
	"made_in_stream_id" bigint,
	"made_in_topic" text,
	"made_in_message_id" bigint,
	"settings" jsonb DEFAULT '{}' NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"widget_defaults" jsonb DEFAULT '{}' NOT NULL,
	"disabled_tools" jsonb DEFAULT '[]' NOT NULL,
	"date_installed" bigint NOT NULL,
	"date_removed" bigint,
	"revision" bigint DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ext_agent_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"realm_id" bigint NOT NULL,
	"requested_by" bigint,
	"channel_id" bigint,
	"recipient_id" bigint NOT NULL,
	"topic" "citext" DEFAULT '' NOT NULL,
	"message_id" bigint NOT NULL,
	"turn_message_id" bigint,
	"state" text NOT NULL,
	"turns" bigint DEFAULT 0 NOT NULL,
	"date_started" bigint NOT NULL,
	"date_ended" bigint,
	"exit_status" bigint,
	"key_hash" text
);
--> statement-breakpoint
CREATE TABLE "ext_workspaces" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"uuid" text NOT NULL,
	"realm_id" bigint NOT NULL,
	"repository_id" bigint NOT NULL,
	"channel_id" bigint NOT NULL,
	"topic" "citext" NOT NULL,
	"branch" text NOT NULL,
	"created_by" bigint,
	"date_created" bigint NOT NULL,
	CONSTRAINT "ext_workspaces_uuid_unique" UNIQUE("uuid")
);
--> statement-breakpoint
CREATE TABLE "ext_widget_documents" (
	"install_id" bigint NOT NULL,
	"widget" text NOT NULL,
	"link_id" bigint NOT NULL,
	"item" text NOT NULL,
	"document" jsonb NOT NULL,
	"version" bigint NOT NULL,
	"date_updated" bigint NOT NULL,
	CONSTRAINT "ext_widget_documents_install_id_widget_link_id_item_pk" PRIMARY KEY("install_id","widget","link_id","item")
);
--> statement-breakpoint
CREATE TABLE "ext_widget_preferences" (
	"user_id" bigint NOT NULL,
	"install_id" bigint NOT NULL,
	"widget" text NOT NULL,
	"shown" boolean,
	"position" bigint,
	"label" text,
	"filters" jsonb,
	"alerts" jsonb,
	"in_column" boolean,
	"rest_figure" text,
	"seen" bigint,
	CONSTRAINT "ext_widget_preferences_user_id_install_id_widget_pk" PRIMARY KEY("user_id","install_id","widget")
);
--> statement-breakpoint
CREATE TABLE "attachments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"realm_id" bigint NOT NULL,
	"owner_id" bigint NOT NULL,
	"path_id" text NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"create_time" bigint NOT NULL,
	"unreferenced_since" bigint,
	CONSTRAINT "attachments_path_id_unique" UNIQUE("path_id")
);
--> statement-breakpoint
CREATE TABLE "message_attachments" (
	"message_id" bigint NOT NULL,
	"attachment_id" bigint NOT NULL,
	CONSTRAINT "message_attachments_attachment_id_message_id_pk" PRIMARY KEY("attachment_id","message_id")
);
--> statement-breakpoint
CREATE TABLE "scheduled_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"realm_id" bigint NOT NULL,
	"sender_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"type" text NOT NULL,
	"to" jsonb NOT NULL,
	"topic" text NOT NULL,
	"content" text NOT NULL,
	"rendered_content" text NOT NULL,
	"scheduled_at" bigint NOT NULL,
	"read_by_sender" boolean NOT NULL,
	"client" text NOT NULL,
	"reminder_target_message_id" bigint,
	"reminder_note" text,
	"delivered" boolean DEFAULT false NOT NULL,
	"delivered_message_id" bigint,
	"failed" boolean DEFAULT false NOT NULL,
	"failure_message" text
);
--> statement-breakpoint
CREATE TABLE "submessages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"message_id" bigint NOT NULL,
	"sender_id" bigint NOT NULL,
	"msg_type" text NOT NULL,
	"content" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "realm_playgrounds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"realm_id" bigint NOT NULL,
	"name" text NOT NULL,
	"pygments_language" text NOT NULL,
	"url_template" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bot_storage" (
	"user_id" bigint NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	CONSTRAINT "bot_storage_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "push_tokens" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"token" text NOT NULL,
	"ios_app_id" text,
	"last_updated" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"realm_id" bigint,
	"kind" text NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text NOT NULL,
	"headers" jsonb,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" bigint DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint NOT NULL,
	"last_error" text,
	"created_at" bigint NOT NULL,
	"sent_at" bigint
);
--> statement-breakpoint
CREATE TABLE "email_tokens" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"user_id" bigint NOT NULL,
	"token_hash" text NOT NULL,
	"new_email" text,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"used_at" bigint
);
--> statement-breakpoint
CREATE TABLE "missed_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"message_id" bigint NOT NULL,
	"trigger" text NOT NULL,
	"mentioned_group_id" bigint,
	"scheduled_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "realm_exports" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"realm_id" bigint NOT NULL,
	"acting_user_id" bigint,
	"export_type" bigint NOT NULL,
	"date_requested" double precision NOT NULL,
	"date_succeeded" double precision,
	"date_failed" double precision,
	"date_deleted" double precision,
	"path" text
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"token_hash" text NOT NULL,
	"csrf_token" text NOT NULL,
	"date_created" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	CONSTRAINT "sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "outgoing_webhook_calls" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"bot_id" bigint NOT NULL,
	"message_id" bigint NOT NULL,
	"trigger" text NOT NULL,
	"message" jsonb NOT NULL,
	"attempts" bigint DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_group_members" ADD CONSTRAINT "user_group_members_group_id_user_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."user_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_group_members" ADD CONSTRAINT "user_group_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_group_subgroups" ADD CONSTRAINT "user_group_subgroups_group_id_user_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."user_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_group_subgroups" ADD CONSTRAINT "user_group_subgroups_subgroup_id_user_groups_id_fk" FOREIGN KEY ("subgroup_id") REFERENCES "public"."user_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_groups" ADD CONSTRAINT "user_groups_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "realm_user_defaults" ADD CONSTRAINT "realm_user_defaults_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "realm_domains" ADD CONSTRAINT "realm_domains_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drafts" ADD CONSTRAINT "drafts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_statuses" ADD CONSTRAINT "user_statuses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_words" ADD CONSTRAINT "alert_words_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "muted_users" ADD CONSTRAINT "muted_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "muted_users" ADD CONSTRAINT "muted_users_muted_user_id_users_id_fk" FOREIGN KEY ("muted_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_field_values" ADD CONSTRAINT "profile_field_values_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_field_values" ADD CONSTRAINT "profile_field_values_field_id_profile_fields_id_fk" FOREIGN KEY ("field_id") REFERENCES "public"."profile_fields"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_fields" ADD CONSTRAINT "profile_fields_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_snippets" ADD CONSTRAINT "saved_snippets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "navigation_views" ADD CONSTRAINT "navigation_views_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_referred_by_users_id_fk" FOREIGN KEY ("referred_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_services" ADD CONSTRAINT "bot_services_bot_id_users_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_devices" ADD CONSTRAINT "client_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "presences" ADD CONSTRAINT "presences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "presences" ADD CONSTRAINT "presences_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "linkifiers" ADD CONSTRAINT "linkifiers_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipients" ADD CONSTRAINT "recipients_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_folders" ADD CONSTRAINT "channel_folders_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ext_secrets" ADD CONSTRAINT "ext_secrets_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ext_secrets" ADD CONSTRAINT "ext_secrets_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ext_secrets" ADD CONSTRAINT "ext_secrets_replaced_by_users_id_fk" FOREIGN KEY ("replaced_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "realm_emoji" ADD CONSTRAINT "realm_emoji_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ext_repositories" ADD CONSTRAINT "ext_repositories_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ext_repositories" ADD CONSTRAINT "ext_repositories_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ext_plugin_links" ADD CONSTRAINT "ext_plugin_links_install_id_ext_plugins_id_fk" FOREIGN KEY ("install_id") REFERENCES "public"."ext_plugins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ext_plugin_links" ADD CONSTRAINT "ext_plugin_links_stream_id_channels_id_fk" FOREIGN KEY ("stream_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ext_plugin_secrets" ADD CONSTRAINT "ext_plugin_secrets_install_id_ext_plugins_id_fk" FOREIGN KEY ("install_id") REFERENCES "public"."ext_plugins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ext_plugin_secrets" ADD CONSTRAINT "ext_plugin_secrets_set_by_users_id_fk" FOREIGN KEY ("set_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ext_plugins" ADD CONSTRAINT "ext_plugins_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ext_plugins" ADD CONSTRAINT "ext_plugins_source_repository_id_ext_repositories_id_fk" FOREIGN KEY ("source_repository_id") REFERENCES "public"."ext_repositories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ext_plugins" ADD CONSTRAINT "ext_plugins_bot_user_id_users_id_fk" FOREIGN KEY ("bot_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ext_plugins" ADD CONSTRAINT "ext_plugins_installed_by_users_id_fk" FOREIGN KEY ("installed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ext_plugins" ADD CONSTRAINT "ext_plugins_made_by_users_id_fk" FOREIGN KEY ("made_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ext_agent_runs" ADD CONSTRAINT "ext_agent_runs_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ext_agent_runs" ADD CONSTRAINT "ext_agent_runs_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ext_agent_runs" ADD CONSTRAINT "ext_agent_runs_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ext_workspaces" ADD CONSTRAINT "ext_workspaces_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ext_workspaces" ADD CONSTRAINT "ext_workspaces_repository_id_ext_repositories_id_fk" FOREIGN KEY ("repository_id") REFERENCES "public"."ext_repositories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ext_workspaces" ADD CONSTRAINT "ext_workspaces_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ext_workspaces" ADD CONSTRAINT "ext_workspaces_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ext_widget_documents" ADD CONSTRAINT "ext_widget_documents_install_id_ext_plugins_id_fk" FOREIGN KEY ("install_id") REFERENCES "public"."ext_plugins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ext_widget_preferences" ADD CONSTRAINT "ext_widget_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ext_widget_preferences" ADD CONSTRAINT "ext_widget_preferences_install_id_ext_plugins_id_fk" FOREIGN KEY ("install_id") REFERENCES "public"."ext_plugins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_attachments" ADD CONSTRAINT "message_attachments_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_attachments" ADD CONSTRAINT "message_attachments_attachment_id_attachments_id_fk" FOREIGN KEY ("attachment_id") REFERENCES "public"."attachments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_messages" ADD CONSTRAINT "scheduled_messages_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_messages" ADD CONSTRAINT "scheduled_messages_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submessages" ADD CONSTRAINT "submessages_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "realm_playgrounds" ADD CONSTRAINT "realm_playgrounds_realm_id_realms_id_fk" FOREIGN KEY ("realm_id") REFERENCES "public"."realms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_storage" ADD CONSTRAINT "bot_storage_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_tokens" ADD CONSTRAINT "push_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_tokens" ADD CONSTRAINT "email_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outgoing_webhook_calls" ADD CONSTRAINT "outgoing_webhook_calls_bot_id_users_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "users_realm_email" ON "users" USING btree ("realm_id",lower("email"));--> statement-breakpoint
CREATE INDEX "users_realm" ON "users" USING btree ("realm_id");--> statement-breakpoint
CREATE INDEX "user_group_members_user" ON "user_group_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "user_group_subgroups_sub" ON "user_group_subgroups" USING btree ("subgroup_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_groups_realm_name" ON "user_groups" USING btree ("realm_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "realm_domains_realm_domain" ON "realm_domains" USING btree ("realm_id","domain");--> statement-breakpoint
CREATE INDEX "drafts_user" ON "drafts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "profile_field_values_field" ON "profile_field_values" USING btree ("field_id");--> statement-breakpoint
CREATE UNIQUE INDEX "profile_fields_realm_name" ON "profile_fields" USING btree ("realm_id","name");--> statement-breakpoint
CREATE INDEX "saved_snippets_user" ON "saved_snippets" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "navigation_views_user_fragment" ON "navigation_views" USING btree ("user_id","fragment");--> statement-breakpoint
CREATE UNIQUE INDEX "invites_key" ON "invites" USING btree ("key");--> statement-breakpoint
CREATE INDEX "invites_realm" ON "invites" USING btree ("realm_id");--> statement-breakpoint
CREATE INDEX "client_devices_user" ON "client_devices" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "presences_realm_update" ON "presences" USING btree ("realm_id","last_update_id");--> statement-breakpoint
CREATE UNIQUE INDEX "linkifiers_realm_pattern" ON "linkifiers" USING btree ("realm_id","pattern");--> statement-breakpoint
CREATE INDEX "linkifiers_realm" ON "linkifiers" USING btree ("realm_id");--> statement-breakpoint
CREATE UNIQUE INDEX "channels_realm_name" ON "channels" USING btree ("realm_id","name");--> statement-breakpoint
CREATE INDEX "channels_realm" ON "channels" USING btree ("realm_id");--> statement-breakpoint
CREATE UNIQUE INDEX "recipients_channel" ON "recipients" USING btree ("channel_id");--> statement-breakpoint
CREATE UNIQUE INDEX "recipients_dm_key" ON "recipients" USING btree ("dm_key");--> statement-breakpoint
CREATE INDEX "channel_folders_realm" ON "channel_folders" USING btree ("realm_id");--> statement-breakpoint
CREATE INDEX "subscriptions_channel" ON "subscriptions" USING btree ("channel_id","active");--> statement-breakpoint
CREATE INDEX "messages_recipient_topic" ON "messages" USING btree ("recipient_id","topic","id");--> statement-breakpoint
CREATE INDEX "messages_recipient" ON "messages" USING btree ("recipient_id","id");--> statement-breakpoint
CREATE INDEX "messages_sender" ON "messages" USING btree ("sender_id","id");--> statement-breakpoint
CREATE INDEX "messages_search" ON "messages" USING gin ("search_tsv");--> statement-breakpoint
CREATE INDEX "user_messages_message" ON "user_messages" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "user_messages_unread" ON "user_messages" USING btree ("user_id","message_id") WHERE ("user_messages"."flags" & 1) = 0;--> statement-breakpoint
CREATE INDEX "user_messages_starred" ON "user_messages" USING btree ("user_id","message_id") WHERE ("user_messages"."flags" & 2) != 0;--> statement-breakpoint
CREATE INDEX "user_messages_mentioned" ON "user_messages" USING btree ("user_id","message_id") WHERE ("user_messages"."flags" & 56) != 0;--> statement-breakpoint
CREATE INDEX "user_messages_alerted" ON "user_messages" USING btree ("user_id","message_id") WHERE ("user_messages"."flags" & 64) != 0;--> statement-breakpoint
CREATE INDEX "user_messages_private" ON "user_messages" USING btree ("user_id","message_id") WHERE ("user_messages"."flags" & 256) != 0;--> statement-breakpoint
CREATE UNIQUE INDEX "reactions_unique" ON "reactions" USING btree ("message_id","user_id","reaction_type","emoji_code");--> statement-breakpoint
CREATE UNIQUE INDEX "ext_secrets_realm_name" ON "ext_secrets" USING btree ("realm_id","name");--> statement-breakpoint
CREATE INDEX "realm_emoji_realm_name" ON "realm_emoji" USING btree ("realm_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "ext_repositories_realm_name" ON "ext_repositories" USING btree ("realm_id",lower("name"));--> statement-breakpoint
CREATE INDEX "ext_plugin_links_install" ON "ext_plugin_links" USING btree ("install_id");--> statement-breakpoint
CREATE INDEX "ext_plugins_realm" ON "ext_plugins" USING btree ("realm_id");--> statement-breakpoint
CREATE INDEX "ext_plugins_bot" ON "ext_plugins" USING btree ("bot_user_id");--> statement-breakpoint
CREATE INDEX "ext_agent_runs_conversation" ON "ext_agent_runs" USING btree ("recipient_id","topic","state");--> statement-breakpoint
CREATE INDEX "ext_agent_runs_realm" ON "ext_agent_runs" USING btree ("realm_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "ext_agent_runs_key" ON "ext_agent_runs" USING btree ("key_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "ext_workspaces_topic" ON "ext_workspaces" USING btree ("channel_id","topic");--> statement-breakpoint
CREATE INDEX "ext_widget_documents_link" ON "ext_widget_documents" USING btree ("link_id");--> statement-breakpoint
CREATE INDEX "attachments_owner" ON "attachments" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "attachments_realm" ON "attachments" USING btree ("realm_id");--> statement-breakpoint
CREATE INDEX "attachments_unreferenced" ON "attachments" USING btree ("unreferenced_since");--> statement-breakpoint
CREATE INDEX "message_attachments_message" ON "message_attachments" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "scheduled_messages_due" ON "scheduled_messages" USING btree ("delivered","failed","scheduled_at");--> statement-breakpoint
CREATE INDEX "scheduled_messages_sender" ON "scheduled_messages" USING btree ("sender_id");--> statement-breakpoint
CREATE INDEX "submessages_message" ON "submessages" USING btree ("message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "realm_playgrounds_name" ON "realm_playgrounds" USING btree ("realm_id","pygments_language","name");--> statement-breakpoint
CREATE UNIQUE INDEX "push_tokens_unique" ON "push_tokens" USING btree ("user_id","kind","token");--> statement-breakpoint
CREATE INDEX "push_tokens_token" ON "push_tokens" USING btree ("token");--> statement-breakpoint
CREATE INDEX "email_outbox_due" ON "email_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE UNIQUE INDEX "email_tokens_hash" ON "email_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "email_tokens_user" ON "email_tokens" USING btree ("user_id","kind");--> statement-breakpoint
CREATE INDEX "missed_messages_due" ON "missed_messages" USING btree ("scheduled_at");--> statement-breakpoint
CREATE INDEX "missed_messages_user" ON "missed_messages" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "realm_exports_realm" ON "realm_exports" USING btree ("realm_id");--> statement-breakpoint
CREATE INDEX "sessions_user" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "outgoing_webhook_calls_due" ON "outgoing_webhook_calls" USING btree ("next_attempt_at");