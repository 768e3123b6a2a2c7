CREATE OR REPLACE FUNCTION notify_viewer_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  quiet text[] := ARRAY['last_seen_at', 'updated_at'];
  member uuid;
BEGIN
  -- The viewers of the member a row names are read again on every server (viewer-cache.server.ts).
  -- A row only seen again (its last_seen_at) changes no one's viewer.
  IF TG_OP = 'UPDATE' AND (to_jsonb(NEW) - quiet) = (to_jsonb(OLD) - quiet) THEN
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'plans' THEN
    PERFORM pg_notify('memberhall_viewers', '*');
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'users' AND TG_OP = 'DELETE' THEN
    member := OLD.id;
  ELSIF TG_TABLE_NAME = 'users' THEN
    member := NEW.id;
  ELSIF TG_OP = 'DELETE' THEN
    member := OLD.user_id;
  ELSE
    member := NEW.user_id;
  END IF;
  PERFORM pg_notify('memberhall_viewers', member::text);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER users_notify_viewer AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION notify_viewer_change();--> statement-breakpoint
CREATE TRIGGER sessions_notify_viewer AFTER UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION notify_viewer_change();--> statement-breakpoint
CREATE TRIGGER subscriptions_notify_viewer AFTER INSERT OR UPDATE OR DELETE ON subscriptions
  FOR EACH ROW EXECUTE FUNCTION notify_viewer_change();--> statement-breakpoint
CREATE TRIGGER plans_notify_viewer AFTER UPDATE OR DELETE ON plans
  FOR EACH ROW EXECUTE FUNCTION notify_viewer_change();
