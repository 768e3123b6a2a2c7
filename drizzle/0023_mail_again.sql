DROP INDEX "mailing_orders_round_key";--> statement-breakpoint
DROP INDEX "mailings_entry_round_slot_key";--> statement-breakpoint
ALTER TABLE "mailing_orders" ADD COLUMN "sequence" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "mailings" ADD COLUMN "envelope" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "mailing_orders_round_key" ON "mailing_orders" USING btree ("entry_id","round","sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "mailings_entry_round_slot_key" ON "mailings" USING btree ("entry_id","round","slot","envelope");