ALTER TABLE "users" ADD COLUMN "deletion_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deletion_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "users_deletion_due_idx" ON "users" USING btree ("deletion_due_at") WHERE "users"."deletion_due_at" is not null;--> statement-breakpoint
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
  -- An erasure (decision 051) takes an erased member's e-mail, name and addresses out of the
  -- entries' data and address: what was done, to what and when stays as it was.
  IF TG_OP = 'UPDATE' AND current_setting('memberhall.erasure', true) = 'on'
    AND NEW.id = OLD.id AND NEW.action = OLD.action AND NEW.entity = OLD.entity
    AND NEW.entity_id IS NOT DISTINCT FROM OLD.entity_id AND NEW.created_at = OLD.created_at
    AND NEW.actor_user_id IS NOT DISTINCT FROM OLD.actor_user_id
    AND NEW.agent_user_id IS NOT DISTINCT FROM OLD.agent_user_id
  THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'The audit log is append-only';
END;
$$;
