CREATE TYPE "public"."cause_status" AS ENUM('live', 'testing', 'beta');--> statement-breakpoint
CREATE TYPE "public"."coupon_duration" AS ENUM('once', 'repeating', 'forever');--> statement-breakpoint
CREATE TYPE "public"."job_status" AS ENUM('queued', 'running', 'done', 'failed');--> statement-breakpoint
CREATE TYPE "public"."mail_status" AS ENUM('pending', 'sent', 'failed');--> statement-breakpoint
CREATE TYPE "public"."newsletter_status" AS ENUM('pending', 'confirmed', 'unsubscribed');--> statement-breakpoint
CREATE TYPE "public"."nol_form" AS ENUM('NoLCreator2', 'NoLProfileBilling', 'NoLBilling');--> statement-breakpoint
CREATE TYPE "public"."payment_status" AS ENUM('pending', 'succeeded', 'failed', 'refunded');--> statement-breakpoint
CREATE TYPE "public"."plan_kind" AS ENUM('subscription', 'donation');--> statement-breakpoint
CREATE TYPE "public"."session_carrier" AS ENUM('cookie', 'state');--> statement-breakpoint
CREATE TYPE "public"."subscription_status" AS ENUM('INCOMPLETE', 'INCOMPLETE_EXPIRED', 'TRIALING', 'ACTIVE', 'PAST_DUE', 'CANCELED', 'UNPAID', 'PAUSED');--> statement-breakpoint
CREATE TYPE "public"."token_purpose" AS ENUM('verify_email', 'password_reset', 'lrm_handoff', 'setup');--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"actor_user_id" uuid,
	"agent_user_id" uuid,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" text,
	"data" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "causes" (
	"code" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims" (
	"claim_id" serial PRIMARY KEY NOT NULL,
	"claimant_id" uuid NOT NULL,
	"cause_code" text NOT NULL,
	"country_code" char(2) NOT NULL,
	"nol_version" text NOT NULL,
	"exhibit_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "countries" (
	"code" char(2) PRIMARY KEY NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "country_causes" (
	"country_code" char(2) NOT NULL,
	"cause_code" text NOT NULL,
	"status" "cause_status" NOT NULL,
	CONSTRAINT "country_causes_country_code_cause_code_pk" PRIMARY KEY("country_code","cause_code")
);
--> statement-breakpoint
CREATE TABLE "coupon_discounts" (
	"coupon_discount_id" serial PRIMARY KEY NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"group_name" text,
	"welcome_message" text,
	"coupon_slug" text NOT NULL,
	"coupon_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "coupon_plans" (
	"coupon_id" text NOT NULL,
	"plan_id" text NOT NULL,
	CONSTRAINT "coupon_plans_coupon_id_plan_id_pk" PRIMARY KEY("coupon_id","plan_id")
);
--> statement-breakpoint
CREATE TABLE "coupons" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"duration" "coupon_duration" NOT NULL,
	"duration_in_months" smallint,
	"redeem_by" timestamp with time zone,
	"amount_off" integer,
	"percent_off" numeric(5, 2),
	"currency" char(3),
	"valid" boolean DEFAULT true NOT NULL,
	"provider_ref" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coupons_one_discount" CHECK (("coupons"."amount_off" is not null and "coupons"."percent_off" is null) or ("coupons"."amount_off" is null and "coupons"."percent_off" is not null)),
	CONSTRAINT "coupons_amount_off_positive" CHECK ("coupons"."amount_off" is null or "coupons"."amount_off" > 0),
	CONSTRAINT "coupons_percent_off_range" CHECK ("coupons"."percent_off" is null or ("coupons"."percent_off" > 0 and "coupons"."percent_off" <= 100)),
	CONSTRAINT "coupons_repeating_months" CHECK (("coupons"."duration" = 'repeating') = ("coupons"."duration_in_months" is not null))
);
--> statement-breakpoint
CREATE TABLE "error_reports" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid,
	"time" timestamp with time zone NOT NULL,
	"href" text NOT NULL,
	"message" text NOT NULL,
	"stack" text,
	"state" jsonb,
	"user_agent" text,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "form_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"form_id" integer NOT NULL,
	"entry_number" integer NOT NULL,
	"user_id" uuid,
	"data" jsonb NOT NULL,
	"edit_hash" text NOT NULL,
	"view_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"queue" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" "job_status" DEFAULT 'queued' NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"max_attempts" smallint DEFAULT 5 NOT NULL,
	"locked_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"template" text,
	"status" "mail_status" DEFAULT 'pending' NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "newsletter_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"status" "newsletter_status" DEFAULT 'pending' NOT NULL,
	"confirm_token_hash" text,
	"unsubscribe_token_hash" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"unsubscribed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "nol_editors" (
	"owner_user_id" uuid NOT NULL,
	"editor_user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "nol_editors_owner_user_id_editor_user_id_pk" PRIMARY KEY("owner_user_id","editor_user_id")
);
--> statement-breakpoint
CREATE TABLE "nol_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"form" "nol_form" NOT NULL,
	"form_id" integer NOT NULL,
	"entry_number" integer NOT NULL,
	"user_id" uuid NOT NULL,
	"cause_code" text NOT NULL,
	"descriptive_version" text NOT NULL,
	"round" smallint DEFAULT 1 NOT NULL,
	"edit_hash" text NOT NULL,
	"view_hash" text NOT NULL,
	"edit_link" text,
	"view_link" text,
	"nol_tracking" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"nol_mailing_date" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"nol_proof_of_delivery" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"continue_respondents" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"continue_extra_respondents_r2" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"continue_extra_respondents_r3" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"resp_status" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"resp_status2" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"resp_status3" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tb_value" smallint,
	"tb_name" text,
	"bill_mailing_date" date,
	"bill_proof_of_delivery" boolean,
	"bill_tracking" text,
	"preparation_date" date,
	"preparation_date_1tb" date,
	"administrative_judgment" bigint,
	"administrative_judgment_1tb" bigint,
	"escalation_fee" bigint,
	"true_bill_total" bigint,
	"first_true_bill_total" bigint,
	"profile" jsonb,
	"mail" jsonb,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notarizations" (
	"notarize_id" serial PRIMARY KEY NOT NULL,
	"notice_id" integer NOT NULL,
	"provider" text NOT NULL,
	"nz_id" text,
	"cost" integer,
	"nz_created" timestamp with time zone,
	"nz_updated" timestamp with time zone,
	"nz_status" text,
	"nz_status2" text,
	"access_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notice_cfs" (
	"notice_cf_id" serial PRIMARY KEY NOT NULL,
	"notice_id" integer NOT NULL,
	"cf_form_id" integer NOT NULL,
	"cf_number" integer NOT NULL,
	"cf_version" text NOT NULL,
	"cf_created" timestamp with time zone,
	"cf_updated" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "notices" (
	"notice_id" serial PRIMARY KEY NOT NULL,
	"claim_id" integer NOT NULL,
	"round_cnt" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notices_round_positive" CHECK ("notices"."round_cnt" >= 1)
);
--> statement-breakpoint
CREATE TABLE "one_time_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"purpose" "token_purpose" NOT NULL,
	"token_hash" text NOT NULL,
	"user_id" uuid,
	"data" jsonb,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"plan_id" text,
	"kind" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" char(3) DEFAULT 'usd' NOT NULL,
	"status" "payment_status" DEFAULT 'pending' NOT NULL,
	"provider" text NOT NULL,
	"provider_ref" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_amount_positive" CHECK ("payments"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "pending_submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"username" text NOT NULL,
	"cause_code" text NOT NULL,
	"descriptive_version" text NOT NULL,
	"prior_rows" integer NOT NULL,
	"entry_id" text,
	"prior_updated" timestamp with time zone,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"kind" "plan_kind" NOT NULL,
	"amount_cents" integer,
	"currency" char(3) DEFAULT 'usd' NOT NULL,
	"interval" text,
	"provider_price_id" text,
	"active" boolean DEFAULT true NOT NULL,
	"sort" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "rate_limits_key_window_start_pk" PRIMARY KEY("key","window_start")
);
--> statement-breakpoint
CREATE TABLE "respondents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entry_id" text NOT NULL,
	"slot" smallint NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"address" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "respondents_slot_range" CHECK ("respondents"."slot" between 1 and 16)
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"agent_user_id" uuid,
	"carrier" "session_carrier" DEFAULT 'cookie' NOT NULL,
	"device_public_key" text,
	"login_checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sub_checked_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"plan_id" text NOT NULL,
	"status" "subscription_status" NOT NULL,
	"provider" text NOT NULL,
	"provider_customer_id" text,
	"provider_subscription_id" text,
	"coupon_id" text,
	"current_period_end" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "support_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"email" text NOT NULL,
	"name" text,
	"subject" text,
	"message" text NOT NULL,
	"source" text DEFAULT 'Member Site' NOT NULL,
	"form_entry_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"username" text NOT NULL,
	"email" text NOT NULL,
	"email_verified_at" timestamp with time zone,
	"password_hash" text,
	"name" text,
	"country_code" char(2),
	"admin" boolean DEFAULT false NOT NULL,
	"nol_creator" boolean DEFAULT false NOT NULL,
	"nol_tester" boolean DEFAULT false NOT NULL,
	"needs_setup" boolean DEFAULT true NOT NULL,
	"setup_step" text,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_agent_user_id_users_id_fk" FOREIGN KEY ("agent_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_claimant_id_users_id_fk" FOREIGN KEY ("claimant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_cause_code_causes_code_fk" FOREIGN KEY ("cause_code") REFERENCES "public"."causes"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_country_code_countries_code_fk" FOREIGN KEY ("country_code") REFERENCES "public"."countries"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "country_causes" ADD CONSTRAINT "country_causes_country_code_countries_code_fk" FOREIGN KEY ("country_code") REFERENCES "public"."countries"("code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "country_causes" ADD CONSTRAINT "country_causes_cause_code_causes_code_fk" FOREIGN KEY ("cause_code") REFERENCES "public"."causes"("code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_discounts" ADD CONSTRAINT "coupon_discounts_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_plans" ADD CONSTRAINT "coupon_plans_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_plans" ADD CONSTRAINT "coupon_plans_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "error_reports" ADD CONSTRAINT "error_reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_entries" ADD CONSTRAINT "form_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nol_editors" ADD CONSTRAINT "nol_editors_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nol_editors" ADD CONSTRAINT "nol_editors_editor_user_id_users_id_fk" FOREIGN KEY ("editor_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nol_entries" ADD CONSTRAINT "nol_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nol_entries" ADD CONSTRAINT "nol_entries_cause_code_causes_code_fk" FOREIGN KEY ("cause_code") REFERENCES "public"."causes"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notarizations" ADD CONSTRAINT "notarizations_notice_id_notices_notice_id_fk" FOREIGN KEY ("notice_id") REFERENCES "public"."notices"("notice_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notice_cfs" ADD CONSTRAINT "notice_cfs_notice_id_notices_notice_id_fk" FOREIGN KEY ("notice_id") REFERENCES "public"."notices"("notice_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_claim_id_claims_claim_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("claim_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "one_time_tokens" ADD CONSTRAINT "one_time_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_submissions" ADD CONSTRAINT "pending_submissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "respondents" ADD CONSTRAINT "respondents_entry_id_nol_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."nol_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_agent_user_id_users_id_fk" FOREIGN KEY ("agent_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_requests" ADD CONSTRAINT "support_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_requests" ADD CONSTRAINT "support_requests_form_entry_id_form_entries_id_fk" FOREIGN KEY ("form_entry_id") REFERENCES "public"."form_entries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_country_code_countries_code_fk" FOREIGN KEY ("country_code") REFERENCES "public"."countries"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "audit_log_entity_idx" ON "audit_log" USING btree ("entity","entity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "claims_claimant_cause_version_key" ON "claims" USING btree ("claimant_id","cause_code","nol_version");--> statement-breakpoint
CREATE UNIQUE INDEX "coupon_discounts_slug_key" ON "coupon_discounts" USING btree (lower("coupon_slug"));--> statement-breakpoint
CREATE INDEX "error_reports_created_idx" ON "error_reports" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "form_entries_form_entry_key" ON "form_entries" USING btree ("form_id","entry_number");--> statement-breakpoint
CREATE INDEX "form_entries_user_idx" ON "form_entries" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "jobs_ready_idx" ON "jobs" USING btree ("status","run_at");--> statement-breakpoint
CREATE INDEX "mail_outbox_status_idx" ON "mail_outbox" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_email_key" ON "newsletter_subscriptions" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "nol_entries_form_entry_key" ON "nol_entries" USING btree ("form_id","entry_number");--> statement-breakpoint
CREATE INDEX "nol_entries_user_cause_idx" ON "nol_entries" USING btree ("user_id","cause_code","descriptive_version");--> statement-breakpoint
CREATE UNIQUE INDEX "nol_entries_edit_hash_key" ON "nol_entries" USING btree ("edit_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "nol_entries_view_hash_key" ON "nol_entries" USING btree ("view_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "notarizations_notice_key" ON "notarizations" USING btree ("notice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "notarizations_nz_id_key" ON "notarizations" USING btree ("provider","nz_id");--> statement-breakpoint
CREATE UNIQUE INDEX "notice_cfs_notice_key" ON "notice_cfs" USING btree ("notice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "notices_claim_round_key" ON "notices" USING btree ("claim_id","round_cnt");--> statement-breakpoint
CREATE UNIQUE INDEX "one_time_tokens_hash_key" ON "one_time_tokens" USING btree ("purpose","token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_provider_key" ON "payments" USING btree ("provider","provider_ref");--> statement-breakpoint
CREATE INDEX "pending_submissions_user_idx" ON "pending_submissions" USING btree ("user_id","cause_code");--> statement-breakpoint
CREATE UNIQUE INDEX "respondents_entry_slot_key" ON "respondents" USING btree ("entry_id","slot");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "subscriptions_user_idx" ON "subscriptions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_provider_key" ON "subscriptions" USING btree ("provider","provider_subscription_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_key" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_events_provider_event_key" ON "webhook_events" USING btree ("provider","event_id");