CREATE OR REPLACE FUNCTION notify_reference_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- What every server keeps of the plans, causes, countries, coupons' names and settings is
  -- read again (reference-cache.server.ts). One notification per statement; the database sends
  -- it on commit, once per transaction.
  PERFORM pg_notify('memberhall_reference', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER plans_notify_reference AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON plans
  FOR EACH STATEMENT EXECUTE FUNCTION notify_reference_change();--> statement-breakpoint
CREATE TRIGGER causes_notify_reference AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON causes
  FOR EACH STATEMENT EXECUTE FUNCTION notify_reference_change();--> statement-breakpoint
CREATE TRIGGER countries_notify_reference AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON countries
  FOR EACH STATEMENT EXECUTE FUNCTION notify_reference_change();--> statement-breakpoint
CREATE TRIGGER country_causes_notify_reference AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON country_causes
  FOR EACH STATEMENT EXECUTE FUNCTION notify_reference_change();--> statement-breakpoint
CREATE TRIGGER settings_notify_reference AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON settings
  FOR EACH STATEMENT EXECUTE FUNCTION notify_reference_change();--> statement-breakpoint
-- Of a coupon only its id and name are kept: a redemption (its count) notifies no one.
CREATE TRIGGER coupons_notify_reference AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF id, name ON coupons
  FOR EACH STATEMENT EXECUTE FUNCTION notify_reference_change();
