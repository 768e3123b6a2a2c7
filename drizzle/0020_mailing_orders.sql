ALTER TYPE "public"."checkout_kind" ADD VALUE 'mailing';--> statement-breakpoint
CREATE TABLE "mailing_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"entry_id" text NOT NULL,
	"cause_code" text NOT NULL,
	"descriptive_version" text NOT NULL,
	"round" smallint NOT NULL,
	"from_address" jsonb,
	"recipients" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"per_envelope_cents" integer DEFAULT 0 NOT NULL,
	"total_cents" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"checkout_id" uuid,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mailing_orders_status_known" CHECK ("mailing_orders"."status" in ('draft', 'paying', 'paid', 'sent')),
	CONSTRAINT "mailing_orders_amounts" CHECK ("mailing_orders"."per_envelope_cents" >= 0 and "mailing_orders"."total_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "order_id" uuid;--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "refund_ref" text;--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "return_receipt_pdf" text;--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "return_receipt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mailing_orders" ADD CONSTRAINT "mailing_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailing_orders" ADD CONSTRAINT "mailing_orders_entry_id_nol_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."nol_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailing_orders" ADD CONSTRAINT "mailing_orders_cause_code_causes_code_fk" FOREIGN KEY ("cause_code") REFERENCES "public"."causes"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailing_orders" ADD CONSTRAINT "mailing_orders_checkout_id_checkouts_id_fk" FOREIGN KEY ("checkout_id") REFERENCES "public"."checkouts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mailing_orders_round_key" ON "mailing_orders" USING btree ("entry_id","round");--> statement-breakpoint
CREATE UNIQUE INDEX "mailing_orders_checkout_key" ON "mailing_orders" USING btree ("checkout_id");--> statement-breakpoint
CREATE INDEX "mailing_orders_user_idx" ON "mailing_orders" USING btree ("user_id","cause_code","descriptive_version");--> statement-breakpoint
ALTER TABLE "mailings" ADD CONSTRAINT "mailings_order_id_mailing_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."mailing_orders"("id") ON DELETE set null ON UPDATE no action;