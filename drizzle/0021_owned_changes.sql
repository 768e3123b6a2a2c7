CREATE OR REPLACE FUNCTION notify_owned_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- What every server keeps of an owner's NoL entries (with their pending submissions and their
  -- versions' features) and of the members list is read again (owned-cache.server.ts). The
  -- database sends each distinct payload once per transaction, on commit.
  IF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('memberhall_owned', 'users');
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM pg_notify('memberhall_owned', 'entries:' || OLD.user_id::text);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM pg_notify('memberhall_owned', 'entries:' || NEW.user_id::text);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER nol_entries_notify_owned AFTER INSERT OR UPDATE OR DELETE ON nol_entries
  FOR EACH ROW EXECUTE FUNCTION notify_owned_change();--> statement-breakpoint
CREATE TRIGGER pending_submissions_notify_owned AFTER INSERT OR UPDATE OR DELETE ON pending_submissions
  FOR EACH ROW EXECUTE FUNCTION notify_owned_change();--> statement-breakpoint
CREATE TRIGGER nol_version_features_notify_owned AFTER INSERT OR UPDATE OR DELETE ON nol_version_features
  FOR EACH ROW EXECUTE FUNCTION notify_owned_change();--> statement-breakpoint
CREATE TRIGGER users_notify_owned AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION notify_owned_change();--> statement-breakpoint
-- A truncate names no owner: every owner's kept entries are read again.
CREATE OR REPLACE FUNCTION notify_owned_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('memberhall_owned', '*');
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER nol_entries_notify_owned_truncate AFTER TRUNCATE ON nol_entries
  FOR EACH STATEMENT EXECUTE FUNCTION notify_owned_truncate();--> statement-breakpoint
CREATE TRIGGER pending_submissions_notify_owned_truncate AFTER TRUNCATE ON pending_submissions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_owned_truncate();--> statement-breakpoint
CREATE TRIGGER nol_version_features_notify_owned_truncate AFTER TRUNCATE ON nol_version_features
  FOR EACH STATEMENT EXECUTE FUNCTION notify_owned_truncate();
