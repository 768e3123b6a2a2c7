CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "nol_version_features" (
	"user_id" uuid NOT NULL,
	"cause_code" text NOT NULL,
	"descriptive_version" text NOT NULL,
	"features" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "nol_version_features_user_id_cause_code_descriptive_version_pk" PRIMARY KEY("user_id","cause_code","descriptive_version")
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "ip" text;--> statement-breakpoint
ALTER TABLE "causes" ADD COLUMN "default_features" jsonb DEFAULT '{"AllowNotarizeOnline":true}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "form_entries" ADD COLUMN "hosted_id" text;--> statement-breakpoint
ALTER TABLE "form_entries" ADD COLUMN "edit_link" text;--> statement-breakpoint
ALTER TABLE "form_entries" ADD COLUMN "view_link" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "subscription_status" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "subscription_plan_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "nol_version_features" ADD CONSTRAINT "nol_version_features_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nol_version_features" ADD CONSTRAINT "nol_version_features_cause_code_causes_code_fk" FOREIGN KEY ("cause_code") REFERENCES "public"."causes"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_user_id","created_at");--> statement-breakpoint
CREATE INDEX "coupon_redemptions_user_idx" ON "coupon_redemptions" USING btree ("user_id","coupon_id");--> statement-breakpoint
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin ((lower("username") || ' ' || lower("email") || ' ' || lower(coalesce("name", ''))) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "users_country_created_idx" ON "users" USING btree ("country_code","created_at","id");--> statement-breakpoint
CREATE INDEX "users_status_created_idx" ON "users" USING btree ("subscription_status","created_at","id");--> statement-breakpoint
CREATE INDEX "users_last_seen_idx" ON "users" USING btree ("last_seen_at","id");--> statement-breakpoint
CREATE INDEX "users_admin_created_idx" ON "users" USING btree ("created_at","id") WHERE "users"."admin";--> statement-breakpoint
CREATE INDEX "users_creator_created_idx" ON "users" USING btree ("created_at","id") WHERE "users"."nol_creator";--> statement-breakpoint
CREATE INDEX "users_tester_created_idx" ON "users" USING btree ("created_at","id") WHERE "users"."nol_tester";--> statement-breakpoint
CREATE INDEX "users_name_sort_idx" ON "users" USING btree (coalesce(lower("name"), ''),"id");--> statement-breakpoint
CREATE INDEX "users_country_sort_idx" ON "users" USING btree (coalesce("country_code", ''),"id");--> statement-breakpoint
CREATE INDEX "users_status_sort_idx" ON "users" USING btree (coalesce("subscription_status", ''),"id");--> statement-breakpoint
CREATE INDEX "users_plan_sort_idx" ON "users" USING btree (coalesce("subscription_plan_id", ''),"id");--> statement-breakpoint
CREATE INDEX "users_seen_sort_idx" ON "users" USING btree (coalesce("last_seen_at", '-infinity'::timestamptz),"id");--> statement-breakpoint
CREATE INDEX "users_username_sort_idx" ON "users" USING btree (lower("username"),"id");--> statement-breakpoint
CREATE INDEX "users_email_sort_idx" ON "users" USING btree (lower("email"),"id");--> statement-breakpoint
ALTER TABLE "form_entries" ADD CONSTRAINT "form_entries_hosted_id_unique" UNIQUE("hosted_id");--> statement-breakpoint
CREATE OR REPLACE FUNCTION users_keep_subscription() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users u
  SET subscription_status = latest.status::text, subscription_plan_id = latest.plan_id
  FROM (
    SELECT s.status, s.plan_id FROM subscriptions s
    WHERE s.user_id = NEW.user_id
    ORDER BY s.created_at DESC
    LIMIT 1
  ) latest
  WHERE u.id = NEW.user_id
    AND (u.subscription_status IS DISTINCT FROM latest.status::text OR u.subscription_plan_id IS DISTINCT FROM latest.plan_id);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER subscriptions_keep_user AFTER INSERT OR UPDATE OF status, plan_id, created_at ON subscriptions
  FOR EACH ROW EXECUTE FUNCTION users_keep_subscription();--> statement-breakpoint
CREATE OR REPLACE FUNCTION users_keep_last_seen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users SET last_seen_at = NEW.last_seen_at
  WHERE id = NEW.user_id AND (last_seen_at IS NULL OR last_seen_at < NEW.last_seen_at);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER sessions_keep_user AFTER INSERT OR UPDATE OF last_seen_at ON sessions
  FOR EACH ROW EXECUTE FUNCTION users_keep_last_seen();--> statement-breakpoint
UPDATE users u SET subscription_status = latest.status::text, subscription_plan_id = latest.plan_id
FROM (
  SELECT DISTINCT ON (user_id) user_id, status, plan_id FROM subscriptions ORDER BY user_id, created_at DESC
) latest
WHERE u.id = latest.user_id;--> statement-breakpoint
UPDATE users u SET last_seen_at = seen.at
FROM (SELECT user_id, max(last_seen_at) AS at FROM sessions GROUP BY user_id) seen
WHERE u.id = seen.user_id;--> statement-breakpoint
CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A deleted member's id is cleared from the entries (the foreign keys' "set null"); nothing else changes.
  IF TG_OP = 'UPDATE'
    AND NEW.id = OLD.id AND NEW.action = OLD.action AND NEW.entity = OLD.entity
    AND NEW.entity_id IS NOT DISTINCT FROM OLD.entity_id AND NEW.data IS NOT DISTINCT FROM OLD.data
    AND NEW.ip IS NOT DISTINCT FROM OLD.ip AND NEW.created_at = OLD.created_at
    AND (NEW.actor_user_id IS NULL OR NEW.actor_user_id = OLD.actor_user_id)
    AND (NEW.agent_user_id IS NULL OR NEW.agent_user_id = OLD.agent_user_id)
  THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'The audit log is append-only';
END;
$$;--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();;--> statement-breakpoint
INSERT INTO nol_version_features (user_id, cause_code, descriptive_version, features)
SELECT DISTINCT e.user_id, e.cause_code, e.descriptive_version, c.default_features
FROM nol_entries e JOIN causes c ON c.code = e.cause_code
ON CONFLICT DO NOTHING;
