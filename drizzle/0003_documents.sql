CREATE TYPE "public"."document_kind" AS ENUM('notice', 'true-bill');--> statement-breakpoint
CREATE TABLE "document_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"cause_code" text,
	"kind" "document_kind" NOT NULL,
	"round" smallint,
	"version" integer NOT NULL,
	"body" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_templates_version_positive" CHECK ("document_templates"."version" >= 1),
	CONSTRAINT "document_templates_round_of_kind" CHECK ("document_templates"."round" is null or ("document_templates"."kind" = 'notice' and "document_templates"."round" between 1 and 3) or ("document_templates"."kind" = 'true-bill' and "document_templates"."round" >= 4))
);
--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "document_template_id" integer;--> statement-breakpoint
ALTER TABLE "document_templates" ADD CONSTRAINT "document_templates_cause_code_causes_code_fk" FOREIGN KEY ("cause_code") REFERENCES "public"."causes"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_templates" ADD CONSTRAINT "document_templates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "document_templates_scope_version_key" ON "document_templates" USING btree (coalesce("cause_code", ''),"kind",coalesce("round", 0),"version");--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_document_template_id_document_templates_id_fk" FOREIGN KEY ("document_template_id") REFERENCES "public"."document_templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notice_cfs_entry_idx" ON "notice_cfs" USING btree ("cf_form_id","cf_number");