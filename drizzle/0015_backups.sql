CREATE TYPE "public"."backup_kind" AS ENUM('manual', 'daily');--> statement-breakpoint
CREATE TYPE "public"."backup_status" AS ENUM('queued', 'running', 'done', 'failed');--> statement-breakpoint
CREATE TABLE "backups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" "backup_kind" NOT NULL,
	"status" "backup_status" DEFAULT 'queued' NOT NULL,
	"admin_id" uuid,
	"driver" text NOT NULL,
	"file_name" text NOT NULL,
	"host" text,
	"pid" integer,
	"progress_done" integer DEFAULT 0 NOT NULL,
	"progress_total" integer DEFAULT 0 NOT NULL,
	"bytes" bigint,
	"sha256" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"heartbeat_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "backups" ADD CONSTRAINT "backups_admin_id_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "backups_created_idx" ON "backups" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "backups_one_at_a_time_idx" ON "backups" USING btree ((true)) WHERE "backups"."status" in ('queued', 'running');