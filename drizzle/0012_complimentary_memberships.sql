ALTER TABLE "subscriptions" ADD COLUMN "granted_by" uuid;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "grant_note" text;--> statement-breakpoint
CREATE OR REPLACE FUNCTION users_keep_subscription() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The member's membership as the lists show it: the one in force before one that is not
  -- (a checkout started while a complimentary one runs), then the newest; a complimentary
  -- one in force reads COMPLIMENTARY.
  UPDATE users u
  SET subscription_status = latest.status, subscription_plan_id = latest.plan_id
  FROM (
    SELECT CASE WHEN s.provider = 'complimentary' AND s.status = 'ACTIVE' THEN 'COMPLIMENTARY' ELSE s.status::text END AS status,
      s.plan_id
    FROM subscriptions s
    WHERE s.user_id = NEW.user_id
    ORDER BY (s.status IN ('ACTIVE', 'TRIALING', 'PAST_DUE')) DESC, s.created_at DESC
    LIMIT 1
  ) latest
  WHERE u.id = NEW.user_id
    AND (u.subscription_status IS DISTINCT FROM latest.status OR u.subscription_plan_id IS DISTINCT FROM latest.plan_id);
  RETURN NULL;
END;
$$;