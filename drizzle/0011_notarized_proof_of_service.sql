DROP INDEX "notarizations_notice_key";--> statement-breakpoint
ALTER TABLE "notarizations" ADD COLUMN "document" text DEFAULT 'notice' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "notarizations_notice_document_key" ON "notarizations" USING btree ("notice_id","document");--> statement-breakpoint
ALTER TABLE "notarizations" ADD CONSTRAINT "notarizations_document_known" CHECK ("notarizations"."document" in ('notice', 'proof-of-service'));