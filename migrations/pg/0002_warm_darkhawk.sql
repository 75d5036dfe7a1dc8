ALTER TABLE "realms" ADD COLUMN "icon_source" text DEFAULT 'G' NOT NULL;--> statement-breakpoint
ALTER TABLE "realms" ADD COLUMN "icon_version" bigint DEFAULT 0 NOT NULL;