CREATE TABLE "mailing_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"mailing_id" uuid,
	"letter_id" text,
	"type" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"body" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mailings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"entry_id" text NOT NULL,
	"cause_code" text NOT NULL,
	"descriptive_version" text NOT NULL,
	"round" smallint NOT NULL,
	"slot" smallint NOT NULL,
	"provider" text NOT NULL,
	"from_address" jsonb NOT NULL,
	"to_address" jsonb NOT NULL,
	"letter_id" text,
	"tracking_number" text,
	"state" text DEFAULT 'sending' NOT NULL,
	"attempt" smallint DEFAULT 1 NOT NULL,
	"idempotency_key" text NOT NULL,
	"sending_since" timestamp with time zone,
	"send_date" timestamp with time zone,
	"expected_delivery_date" date,
	"mailed_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"returned_at" timestamp with time zone,
	"reason" text,
	"last_event_at" timestamp with time zone,
	"polled_at" timestamp with time zone,
	"return_notice_at" timestamp with time zone,
	"cost_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mailings_slot_range" CHECK ("mailings"."slot" between 1 and 16),
	CONSTRAINT "mailings_cost_positive" CHECK ("mailings"."cost_cents" >= 0),
	CONSTRAINT "mailings_state_known" CHECK ("mailings"."state" in ('sending', 'created', 'mailed', 'in_transit', 'delivered', 'returned_to_sender', 'cancelled', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "mailing_events" ADD CONSTRAINT "mailing_events_mailing_id_mailings_id_fk" FOREIGN KEY ("mailing_id") REFERENCES "public"."mailings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailings" ADD CONSTRAINT "mailings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailings" ADD CONSTRAINT "mailings_entry_id_nol_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."nol_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailings" ADD CONSTRAINT "mailings_cause_code_causes_code_fk" FOREIGN KEY ("cause_code") REFERENCES "public"."causes"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mailing_events_event_key" ON "mailing_events" USING btree ("provider","event_id");--> statement-breakpoint
CREATE INDEX "mailing_events_mailing_idx" ON "mailing_events" USING btree ("mailing_id","occurred_at");--> statement-breakpoint
CREATE UNIQUE INDEX "mailings_idempotency_key" ON "mailings" USING btree ("idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "mailings_entry_round_slot_key" ON "mailings" USING btree ("entry_id","round","slot");--> statement-breakpoint
CREATE UNIQUE INDEX "mailings_letter_key" ON "mailings" USING btree ("provider","letter_id");--> statement-breakpoint
CREATE INDEX "mailings_user_idx" ON "mailings" USING btree ("user_id","cause_code","descriptive_version");--> statement-breakpoint
CREATE INDEX "mailings_state_idx" ON "mailings" USING btree ("state","last_event_at");