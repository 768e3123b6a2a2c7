CREATE TYPE "public"."member_archive_status" AS ENUM('queued', 'running', 'done', 'failed', 'expired');--> statement-breakpoint
ALTER TYPE "public"."token_purpose" ADD VALUE 'data_archive';--> statement-breakpoint
CREATE TABLE "member_archives" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"status" "member_archive_status" DEFAULT 'queued' NOT NULL,
	"requested_on" date NOT NULL,
	"host" text,
	"progress_done" integer DEFAULT 0 NOT NULL,
	"progress_total" integer DEFAULT 0 NOT NULL,
	"bytes" bigint,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"heartbeat_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"downloaded_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "member_archives" ADD CONSTRAINT "member_archives_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_archives_user_idx" ON "member_archives" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "member_archives_one_a_day_idx" ON "member_archives" USING btree ("user_id","requested_on") WHERE "member_archives"."status" <> 'failed';