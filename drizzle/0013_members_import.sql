CREATE TYPE "public"."member_import_action" AS ENUM('create', 'update', 'skip');--> statement-breakpoint
CREATE TYPE "public"."member_import_status" AS ENUM('checking', 'checked', 'queued', 'running', 'done', 'failed');--> statement-breakpoint
ALTER TYPE "public"."token_purpose" ADD VALUE 'invitation';--> statement-breakpoint
CREATE TABLE "member_import_rows" (
	"import_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"email" text NOT NULL,
	"member" jsonb,
	"action" "member_import_action" NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"outcome" "member_import_action",
	"outcome_reason" text,
	"user_id" uuid,
	"granted_at" timestamp with time zone,
	"invited_at" timestamp with time zone,
	CONSTRAINT "member_import_rows_import_id_line_pk" PRIMARY KEY("import_id","line")
);
--> statement-breakpoint
CREATE TABLE "member_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"admin_id" uuid,
	"file_name" text NOT NULL,
	"encoding" text NOT NULL,
	"columns" jsonb NOT NULL,
	"status" "member_import_status" DEFAULT 'checking' NOT NULL,
	"invite" boolean DEFAULT true NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"to_create" integer DEFAULT 0 NOT NULL,
	"to_update" integer DEFAULT 0 NOT NULL,
	"to_skip" integer DEFAULT 0 NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"invited" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "labels" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "member_import_rows" ADD CONSTRAINT "member_import_rows_import_id_member_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."member_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_import_rows" ADD CONSTRAINT "member_import_rows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_imports" ADD CONSTRAINT "member_imports_admin_id_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_import_rows_pending_idx" ON "member_import_rows" USING btree ("import_id","line") WHERE "member_import_rows"."outcome" is null;--> statement-breakpoint
CREATE INDEX "member_import_rows_invite_idx" ON "member_import_rows" USING btree ("import_id","line") WHERE "member_import_rows"."outcome" = 'create' and "member_import_rows"."invited_at" is null;--> statement-breakpoint
CREATE INDEX "member_imports_created_idx" ON "member_imports" USING btree ("created_at");