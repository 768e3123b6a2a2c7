CREATE TABLE "round_signatures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"entry_id" text NOT NULL,
	"round" smallint NOT NULL,
	"method" text NOT NULL,
	"signer_name" text NOT NULL,
	"image_png" text,
	"consent_text" text NOT NULL,
	"document_sha256" char(64) NOT NULL,
	"template_id" integer,
	"on_download" boolean DEFAULT true NOT NULL,
	"session_ref" text NOT NULL,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "round_signatures_method_known" CHECK ("round_signatures"."method" in ('drawn', 'typed'))
);
--> statement-breakpoint
CREATE TABLE "service_records" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"entry_id" text NOT NULL,
	"round" smallint NOT NULL,
	"slot" smallint NOT NULL,
	"kind" text NOT NULL,
	"day" date,
	"tracking_number" text,
	"reason" text,
	"letter_id" text,
	"recorded_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_records_slot_range" CHECK ("service_records"."slot" between 1 and 16),
	CONSTRAINT "service_records_kind_known" CHECK ("service_records"."kind" in ('mailed', 'delivered', 'returned', 'left_out'))
);
--> statement-breakpoint
ALTER TABLE "notarizations" ADD COLUMN "letter_pages" jsonb;--> statement-breakpoint
ALTER TABLE "round_signatures" ADD CONSTRAINT "round_signatures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "round_signatures" ADD CONSTRAINT "round_signatures_entry_id_nol_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."nol_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_records" ADD CONSTRAINT "service_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_records" ADD CONSTRAINT "service_records_entry_id_nol_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."nol_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_records" ADD CONSTRAINT "service_records_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "round_signatures_round_idx" ON "round_signatures" USING btree ("entry_id","round","created_at");--> statement-breakpoint
CREATE INDEX "round_signatures_user_idx" ON "round_signatures" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "service_records_round_idx" ON "service_records" USING btree ("entry_id","round","id");--> statement-breakpoint
CREATE INDEX "service_records_user_idx" ON "service_records" USING btree ("user_id");