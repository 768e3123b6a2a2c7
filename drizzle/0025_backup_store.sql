ALTER TABLE "backups" ADD COLUMN "encryption" text;--> statement-breakpoint
ALTER TABLE "backups" ADD COLUMN "local_copy" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "backups" ADD COLUMN "stored_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "backups" ADD COLUMN "table_counts" jsonb;--> statement-breakpoint
ALTER TABLE "backups" ADD COLUMN "verify" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "backups" ADD COLUMN "verify_status" text;--> statement-breakpoint
ALTER TABLE "backups" ADD COLUMN "verify_report" jsonb;--> statement-breakpoint
ALTER TABLE "backups" ADD COLUMN "verified_at" timestamp with time zone;