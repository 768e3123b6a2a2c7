ALTER TABLE "causes" ADD COLUMN "response_windows" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "nol_entries" ADD COLUMN "nol_delivery_date" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "nol_entries" ADD COLUMN "bill_delivery_date" date;