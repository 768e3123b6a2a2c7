CREATE TYPE "public"."review_status" AS ENUM('pending', 'approved', 'rejected');--> statement-breakpoint
CREATE TABLE "directory_respondents" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"agency" text,
	"place" text,
	"address" text,
	"suggestion_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "form_entries" ADD COLUMN "review_status" "review_status";--> statement-breakpoint
ALTER TABLE "form_entries" ADD COLUMN "review_note" text;--> statement-breakpoint
ALTER TABLE "form_entries" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "form_entries" ADD COLUMN "reviewed_by" uuid;--> statement-breakpoint
ALTER TABLE "directory_respondents" ADD CONSTRAINT "directory_respondents_suggestion_id_form_entries_id_fk" FOREIGN KEY ("suggestion_id") REFERENCES "public"."form_entries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "directory_respondents_name_place_key" ON "directory_respondents" USING btree (lower("name"),lower(coalesce("place", '')));--> statement-breakpoint
ALTER TABLE "form_entries" ADD CONSTRAINT "form_entries_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "form_entries_review_idx" ON "form_entries" USING btree ("review_status","created_at");