import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  char,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import type { PostalAddress } from "../domain/mailing/address";
import type { MailingState } from "../domain/mailing/round-letters";
import type { ReminderKind } from "../domain/nol/reminders";
import type { WindowKind } from "../domain/nol/timeline";
import type { ServiceRecordKind } from "../domain/nol/service";
import type { BackupVerifyReport } from "../domain/backups";

/**
 * One schema for the embedded database (PGlite) and PostgreSQL. Money is integer cents;
 * times are timestamptz; names follow the spec's field names where the spec gives them.
 */

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

// ── Settings ─────────────────────────────────────────────────────────────────

/** Community-wide values kept in the database (mnInviteLink, mightyLinks, seed marks). */
export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: updatedAt(),
});

// ── Countries and the cause catalogue (spec §3 "Cause catalogue", §4 "Cause status") ──

export const countries = pgTable("countries", {
  code: char("code", { length: 2 }).primaryKey(),
  name: text("name").notNull(),
});

export const causes = pgTable("causes", {
  code: text("code").primaryKey(),
  label: text("label").notNull(),
  name: text("name").notNull(),
  /** The NoL features a new member version of the cause starts with (spec §3 nolFeatures). */
  defaultFeatures: jsonb("default_features")
    .$type<{ AllowNotarizeOnline: boolean }>()
    .notNull()
    .default({ AllowNotarizeOnline: true }),
  /** The respondents' windows (days) the cause sets, by round kind; the others come from config. */
  responseWindows: jsonb("response_windows").$type<Partial<Record<WindowKind, number>>>().notNull().default({}),
  createdAt: createdAt(),
});

export const causeStatus = pgEnum("cause_status", ["live", "testing", "beta"]);

export const countryCauses = pgTable(
  "country_causes",
  {
    countryCode: char("country_code", { length: 2 })
      .notNull()
      .references(() => countries.code, { onDelete: "cascade" }),
    causeCode: text("cause_code")
      .notNull()
      .references(() => causes.code, { onDelete: "cascade" }),
    status: causeStatus("status").notNull(),
  },
  (t) => [primaryKey({ columns: [t.countryCode, t.causeCode] })],
);

// ── Members, sessions, one-time tokens (spec §3 "Session state", "Login hand-off") ──

/** What the admins' member search reads: username, e-mail and name, lower-cased, in one text. */
export function memberSearchText(t: { username: AnyPgColumn; email: AnyPgColumn; name: AnyPgColumn }) {
  return sql`(lower(${t.username}) || ' ' || lower(${t.email}) || ' ' || lower(coalesce(${t.name}, '')))`;
}

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    username: text("username").notNull(),
    email: text("email").notNull(),
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
    passwordHash: text("password_hash"),
    name: text("name"),
    countryCode: char("country_code", { length: 2 }).references(() => countries.code),
    admin: boolean("admin").notNull().default(false),
    nolCreator: boolean("nol_creator").notNull().default(false),
    nolTester: boolean("nol_tester").notNull().default(false),
    needsSetup: boolean("needs_setup").notNull().default(true),
    setupStep: text("setup_step"),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    /**
     * Kept by database triggers for the admins' members list: the latest subscription's status
     * and plan, and the newest use of any of the member's sessions.
     */
    subscriptionStatus: text("subscription_status"),
    subscriptionPlanId: text("subscription_plan_id"),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }),
    /** The admins' own words for the member (a group, where they came from), as a members import brings them. */
    labels: text("labels")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * The member deleted their account (decision 051): sessions ended, login offers to undo
     * until `deletionDueAt`; then the erasure job empties the row and sets `erasedAt`.
     */
    deletionRequestedAt: timestamp("deletion_requested_at", { withTimezone: true }),
    deletionDueAt: timestamp("deletion_due_at", { withTimezone: true }),
    erasedAt: timestamp("erased_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_username_key").on(sql`lower(${t.username})`),
    uniqueIndex("users_email_key").on(sql`lower(${t.email})`),
    // The members list: its search (trigram), its default order, and its commonest filters.
    // One trigram index over the three searched columns: one index scan per search.
    index("users_search_trgm_idx").using("gin", sql`${memberSearchText(t)} gin_trgm_ops`),
    index("users_created_idx").on(t.createdAt, t.id),
    index("users_country_created_idx").on(t.countryCode, t.createdAt, t.id),
    index("users_status_created_idx").on(t.subscriptionStatus, t.createdAt, t.id),
    index("users_last_seen_idx").on(t.lastSeenAt, t.id),
    // The few admins, creators and testers, newest first.
    index("users_admin_created_idx")
      .on(t.createdAt, t.id)
      .where(sql`${t.admin}`),
    index("users_creator_created_idx")
      .on(t.createdAt, t.id)
      .where(sql`${t.nolCreator}`),
    index("users_tester_created_idx")
      .on(t.createdAt, t.id)
      .where(sql`${t.nolTester}`),
    // The list's sort orders of the nullable columns (app/services/member-listing.server.ts).
    index("users_name_sort_idx").on(sql`coalesce(lower(${t.name}), '')`, t.id),
    index("users_country_sort_idx").on(sql`coalesce(${t.countryCode}, '')`, t.id),
    index("users_status_sort_idx").on(sql`coalesce(${t.subscriptionStatus}, '')`, t.id),
    index("users_plan_sort_idx").on(sql`coalesce(${t.subscriptionPlanId}, '')`, t.id),
    index("users_seen_sort_idx").on(sql`coalesce(${t.lastSeenAt}, '-infinity'::timestamptz)`, t.id),
    index("users_username_sort_idx").on(sql`lower(${t.username})`, t.id),
    index("users_email_sort_idx").on(sql`lower(${t.email})`, t.id),
    index("users_deletion_due_idx")
      .on(t.deletionDueAt)
      .where(sql`${t.deletionDueAt} is not null`),
  ],
);

export const sessionCarrier = pgEnum("session_carrier", ["cookie", "state"]);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The member an admin is acting for (agent mode), if any. */
    agentUserId: uuid("agent_user_id").references(() => users.id, { onDelete: "set null" }),
    carrier: sessionCarrier("carrier").notNull().default("cookie"),
    devicePublicKey: text("device_public_key"),
    loginCheckedAt: timestamp("login_checked_at", { withTimezone: true }).notNull().defaultNow(),
    subCheckedAt: timestamp("sub_checked_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the session last passed a second factor (sign-in or step-up); null: never. */
    factorPassedAt: timestamp("factor_passed_at", { withTimezone: true }),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const factorKind = pgEnum("factor_kind", ["passkey", "totp"]);

/**
 * A member's second factors (decision 045): passkeys (WebAuthn credentials, several, named)
 * and at most one authenticator app (TOTP, its secret encrypted).
 */
export const userFactors = pgTable(
  "user_factors",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: factorKind("kind").notNull(),
    name: text("name").notNull(),
    /** A passkey's credential id (base64url); null for TOTP. */
    credentialId: text("credential_id"),
    /** A passkey's COSE public key (base64url). */
    publicKey: text("public_key"),
    signCount: bigint("sign_count", { mode: "number" }).notNull().default(0),
    transports: text("transports").array(),
    /** A TOTP secret, encrypted (crypto.server.ts). */
    secretSealed: text("secret_sealed"),
    /** The last TOTP time step accepted: each is accepted once. */
    lastStep: bigint("last_step", { mode: "number" }),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [
    index("user_factors_user_idx").on(t.userId),
    uniqueIndex("user_factors_credential_idx").on(t.credentialId),
    uniqueIndex("user_factors_one_totp_idx")
      .on(t.userId)
      .where(sql`${t.kind} = 'totp'`),
  ],
);

/** Single-use recovery codes, stored as SHA-256 hashes. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("recovery_codes_hash_idx").on(t.userId, t.codeHash)],
);

/**
 * A browser that passed a second factor and may skip it at sign-in until a date: it proves
 * itself with the random secret of its HttpOnly cookie, kept here as a SHA-256 hash.
 */
export const rememberedDevices = pgTable(
  "remembered_devices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    /** The browser's state-header key when it had one: which device it was, for the member. */
    devicePublicKey: text("device_public_key"),
    userAgent: text("user_agent"),
    until: timestamp("until", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("remembered_devices_user_idx").on(t.userId),
    uniqueIndex("remembered_devices_token_idx").on(t.tokenHash),
  ],
);

/** A WebAuthn challenge handed out and not yet answered: each is used once, within minutes. */
export const webauthnChallenges = pgTable("webauthn_challenges", {
  id: uuid("id").primaryKey().defaultRandom(),
  challenge: text("challenge").notNull(),
  /** The member registering or stepping up; null for a sign-in by passkey alone. */
  userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
  purpose: text("purpose").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

export const tokenPurpose = pgEnum("token_purpose", [
  "verify_email",
  "password_reset",
  "lrm_handoff",
  "setup",
  "invitation",
  "data_archive",
  "pending_login",
]);

/**
 * Single-use codes: e-mail verification, password reset, learning-site hand-off, a sign-in
 * waiting for its second factor. Only hashes are kept.
 */
export const oneTimeTokens = pgTable(
  "one_time_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    purpose: tokenPurpose("purpose").notNull(),
    tokenHash: text("token_hash").notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    data: jsonb("data"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("one_time_tokens_hash_key").on(t.purpose, t.tokenHash)],
);

/** Fixed-window counters for rate limits shared by every app server. */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

// ── Plans, coupons, subscriptions (spec §3 "Plan", "Coupon", "Coupon discount") ──

export const planKind = pgEnum("plan_kind", ["subscription", "donation", "credit"]);

/** What a plan grants while its subscription is in force (the NoL creator, today). */
export const PLAN_FEATURES = ["nolCreator"] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];

export const plans = pgTable("plans", {
  id: text("id").primaryKey(),
  title: text("title").notNull(),
  kind: planKind("kind").notNull(),
  amountCents: integer("amount_cents"),
  currency: char("currency", { length: 3 }).notNull().default("usd"),
  interval: text("interval", { enum: ["month", "year"] }),
  providerPriceId: text("provider_price_id"),
  description: text("description"),
  features: jsonb("features").$type<PlanFeature[]>().notNull().default([]),
  active: boolean("active").notNull().default(true),
  sort: smallint("sort").notNull().default(0),
  createdAt: createdAt(),
});

export const couponDuration = pgEnum("coupon_duration", ["once", "repeating", "forever"]);

export const coupons = pgTable(
  "coupons",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    duration: couponDuration("duration").notNull(),
    durationInMonths: smallint("duration_in_months"),
    redeemBy: timestamp("redeem_by", { withTimezone: true }),
    amountOff: integer("amount_off"),
    percentOff: numeric("percent_off", { precision: 5, scale: 2 }),
    currency: char("currency", { length: 3 }),
    valid: boolean("valid").notNull().default(true),
    providerRef: text("provider_ref"),
    /** Null: no limit. */
    maxRedemptions: integer("max_redemptions"),
    timesRedeemed: integer("times_redeemed").notNull().default(0),
    lastRedeemedAt: timestamp("last_redeemed_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("coupons_max_redemptions_positive", sql`${t.maxRedemptions} is null or ${t.maxRedemptions} > 0`),
    check(
      "coupons_one_discount",
      sql`(${t.amountOff} is not null and ${t.percentOff} is null) or (${t.amountOff} is null and ${t.percentOff} is not null)`,
    ),
    check("coupons_amount_off_positive", sql`${t.amountOff} is null or ${t.amountOff} > 0`),
    check(
      "coupons_percent_off_range",
      sql`${t.percentOff} is null or (${t.percentOff} > 0 and ${t.percentOff} <= 100)`,
    ),
    check("coupons_repeating_months", sql`(${t.duration} = 'repeating') = (${t.durationInMonths} is not null)`),
  ],
);

/** Which plans a coupon applies to (spec "coupon_plans": coupon_id with a plans list). */
export const couponPlans = pgTable(
  "coupon_plans",
  {
    couponId: text("coupon_id")
      .notNull()
      .references(() => coupons.id, { onDelete: "cascade" }),
    planId: text("plan_id")
      .notNull()
      .references(() => plans.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.couponId, t.planId] })],
);

export const couponDiscounts = pgTable(
  "coupon_discounts",
  {
    id: serial("coupon_discount_id").primaryKey(),
    active: boolean("active").notNull().default(true),
    groupName: text("group_name"),
    welcomeMessage: text("welcome_message"),
    couponSlug: text("coupon_slug").notNull(),
    couponId: text("coupon_id")
      .notNull()
      .references(() => coupons.id, { onDelete: "restrict" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("coupon_discounts_slug_key").on(sql`lower(${t.couponSlug})`)],
);

/** A billing customer: the member (or a visitor's e-mail) at the payments provider, reused. */
export const billingCustomers = pgTable(
  "billing_customers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    email: text("email").notNull(),
    provider: text("provider", { enum: ["sandbox", "stripe"] }).notNull(),
    providerCustomerId: text("provider_customer_id").notNull(),
    /** The card on file, as the provider reports it. */
    cardBrand: text("card_brand"),
    cardLast4: char("card_last4", { length: 4 }),
    cardExpMonth: smallint("card_exp_month"),
    cardExpYear: smallint("card_exp_year"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("billing_customers_provider_key").on(t.provider, t.providerCustomerId),
    uniqueIndex("billing_customers_user_key").on(t.provider, t.userId),
    index("billing_customers_email_idx").on(sql`lower(${t.email})`),
  ],
);

export const checkoutKind = pgEnum("checkout_kind", ["subscription", "donation", "credit", "card", "mailing"]);
export const checkoutStatus = pgEnum("checkout_status", [
  "open",
  "requires_action",
  "processing",
  "succeeded",
  "failed",
  "canceled",
]);

/**
 * One attempt to pay (or to change the card on file): its id is the idempotency key sent to
 * the provider, so a retried or double-clicked attempt is one charge. The provider's event
 * settles it.
 */
export const checkouts = pgTable(
  "checkouts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    /** Who pays: the member's e-mail, or a visitor's, which signing up with it claims. */
    email: text("email").notNull(),
    kind: checkoutKind("kind").notNull(),
    planId: text("plan_id").references(() => plans.id),
    couponId: text("coupon_id").references(() => coupons.id),
    couponDiscountId: integer("coupon_discount_id").references(() => couponDiscounts.id, { onDelete: "set null" }),
    /** The price before the coupon, and what the first payment charges. */
    listAmountCents: integer("list_amount_cents").notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: char("currency", { length: 3 }).notNull().default("usd"),
    status: checkoutStatus("status").notNull().default("open"),
    provider: text("provider", { enum: ["sandbox", "stripe"] }).notNull(),
    providerCustomerId: text("provider_customer_id"),
    /** The provider's subscription, payment intent or setup intent. */
    providerRef: text("provider_ref"),
    clientSecret: text("client_secret"),
    failureMessage: text("failure_message"),
    subscriptionId: uuid("subscription_id"),
    paymentId: uuid("payment_id"),
    /** A page of this site to go back to once paid (the notarize page that asked for a credit). */
    returnPath: text("return_path"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("checkouts_amounts", sql`${t.amountCents} >= 0 and ${t.listAmountCents} >= ${t.amountCents}`),
    index("checkouts_user_idx").on(t.userId, t.createdAt),
    index("checkouts_email_idx").on(sql`lower(${t.email})`),
    uniqueIndex("checkouts_provider_ref_key").on(t.provider, t.providerRef),
  ],
);

/** Each use of a coupon: counted once per checkout. */
export const couponRedemptions = pgTable(
  "coupon_redemptions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    couponId: text("coupon_id")
      .notNull()
      .references(() => coupons.id, { onDelete: "restrict" }),
    couponDiscountId: integer("coupon_discount_id").references(() => couponDiscounts.id, { onDelete: "set null" }),
    checkoutId: uuid("checkout_id")
      .notNull()
      .references(() => checkouts.id, { onDelete: "cascade" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    email: text("email").notNull(),
    listAmountCents: integer("list_amount_cents").notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: char("currency", { length: 3 }).notNull(),
    redeemedAt: timestamp("redeemed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("coupon_redemptions_checkout_key").on(t.checkoutId),
    index("coupon_redemptions_coupon_idx").on(t.couponId, t.redeemedAt),
    index("coupon_redemptions_user_idx").on(t.userId, t.couponId),
  ],
);

/**
 * The built-in payments provider's own records (customers, payment methods, intents,
 * subscriptions, invoices), kept apart from ours as a real provider keeps them.
 */
export const sandboxObjects = pgTable(
  "sandbox_objects",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("sandbox_objects_type_idx").on(t.type, t.createdAt)],
);

export const subscriptionStatus = pgEnum("subscription_status", [
  "INCOMPLETE",
  "INCOMPLETE_EXPIRED",
  "TRIALING",
  "ACTIVE",
  "PAST_DUE",
  "CANCELED",
  "UNPAID",
  "PAUSED",
]);

export const subscriptions = pgTable(
  "subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    planId: text("plan_id")
      .notNull()
      .references(() => plans.id),
    status: subscriptionStatus("status").notNull(),
    /** Who bills it: a payments provider, or nobody (an admin's complimentary grant). */
    provider: text("provider", { enum: ["sandbox", "stripe", "complimentary"] }).notNull(),
    providerCustomerId: text("provider_customer_id"),
    providerSubscriptionId: text("provider_subscription_id"),
    couponId: text("coupon_id").references(() => coupons.id),
    /** Payments the coupon still lowers: null while it lasts forever (or there is none). */
    couponPaymentsLeft: smallint("coupon_payments_left"),
    /** The plan's price, and what the next payment charges after the coupon. */
    listAmountCents: integer("list_amount_cents"),
    amountCents: integer("amount_cents"),
    currency: char("currency", { length: 3 }).notNull().default("usd"),
    currentPeriodStart: timestamp("current_period_start", { withTimezone: true }),
    currentPeriodEnd: timestamp("current_period_end", { withTimezone: true }),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    canceledAt: timestamp("canceled_at", { withTimezone: true }),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    /** When PAST_DUE began: the plan's features last a grace period past it. */
    pastDueSince: timestamp("past_due_since", { withTimezone: true }),
    checkoutId: uuid("checkout_id"),
    /**
     * A complimentary membership's admin, and their reason. No foreign key: the audit log names
     * the admin too, and with a second key to users here two payment events of one member
     * written at once failed now and then (decision 037).
     */
    grantedBy: uuid("granted_by"),
    grantNote: text("grant_note"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("subscriptions_user_idx").on(t.userId),
    uniqueIndex("subscriptions_provider_key").on(t.provider, t.providerSubscriptionId),
  ],
);

export const paymentStatus = pgEnum("payment_status", ["pending", "succeeded", "failed", "refunded"]);

/** One-off card payments: donations and credits. */
export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    planId: text("plan_id").references(() => plans.id),
    /** A donation, a credit, or one payment (invoice) of a subscription. */
    kind: text("kind", { enum: ["donation", "credit", "subscription", "mailing"] }).notNull(),
    subscriptionId: uuid("subscription_id").references(() => subscriptions.id, { onDelete: "set null" }),
    checkoutId: uuid("checkout_id").references(() => checkouts.id, { onDelete: "set null" }),
    /** Who paid: kept for a visitor's payment until signing up with this e-mail claims it. */
    email: text("email"),
    couponId: text("coupon_id").references(() => coupons.id),
    listAmountCents: integer("list_amount_cents"),
    amountCents: integer("amount_cents").notNull(),
    refundedCents: integer("refunded_cents").notNull().default(0),
    currency: char("currency", { length: 3 }).notNull().default("usd"),
    status: paymentStatus("status").notNull().default("pending"),
    provider: text("provider", { enum: ["sandbox", "stripe"] }).notNull(),
    providerRef: text("provider_ref"),
    cardBrand: text("card_brand"),
    cardLast4: char("card_last4", { length: 4 }),
    failureMessage: text("failure_message"),
    periodStart: timestamp("period_start", { withTimezone: true }),
    periodEnd: timestamp("period_end", { withTimezone: true }),
    receiptSentAt: timestamp("receipt_sent_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("payments_amount_not_negative", sql`${t.amountCents} >= 0`),
    index("payments_user_idx").on(t.userId, t.createdAt),
    index("payments_email_idx").on(sql`lower(${t.email})`),
    uniqueIndex("payments_provider_key").on(t.provider, t.providerRef),
  ],
);

/**
 * A member's notarize credits: the balance, which the constraint keeps from going below zero
 * (a spend is one conditional update, so two at once spend at most what is there).
 */
export const creditAccounts = pgTable(
  "credit_accounts",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    balance: integer("balance").notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [check("credit_accounts_balance_not_negative", sql`${t.balance} >= 0`)],
);

/** Each change of a member's credits, written with the balance's change in one transaction. */
export const creditEntries = pgTable(
  "credit_entries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    delta: integer("delta").notNull(),
    reason: text("reason", { enum: ["purchase", "grant", "spend", "refund"] }).notNull(),
    /** The payment a purchase comes from: one purchase per payment. */
    paymentId: uuid("payment_id").references(() => payments.id, { onDelete: "set null" }),
    /** The notice a spend (or its refund) notarizes, and the notary's transaction once made. */
    noticeId: integer("notice_id").references((): AnyPgColumn => notices.id, { onDelete: "set null" }),
    nzId: text("nz_id"),
    /** A spend given back: set once, in the transaction that writes the refund. */
    refunded: boolean("refunded").notNull().default(false),
    /** Who granted it (an admin), or who spent it. */
    actorUserId: uuid("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    note: text("note"),
    createdAt: createdAt(),
  },
  (t) => [
    check("credit_entries_delta_not_zero", sql`${t.delta} <> 0`),
    index("credit_entries_user_idx").on(t.userId, t.createdAt),
    uniqueIndex("credit_entries_purchase_key")
      .on(t.paymentId)
      .where(sql`${t.reason} = 'purchase'`),
    // One spend at a time per notice until the notary's transaction is made or the spend given back.
    uniqueIndex("credit_entries_pending_spend_key")
      .on(t.noticeId)
      .where(sql`${t.reason} = 'spend' and ${t.nzId} is null and not ${t.refunded}`),
    index("credit_entries_nz_idx").on(t.nzId),
  ],
);

// ── NoL creator: member versions, respondents, editors, pending submissions ──

export const nolForm = pgEnum("nol_form", ["NoLCreator2", "NoLProfileBilling", "NoLBilling"]);

/** A NoL entry ("member version", spec §3 "NoL entry"). */
export const nolEntries = pgTable(
  "nol_entries",
  {
    id: text("id").primaryKey(),
    form: nolForm("form").notNull(),
    formId: integer("form_id").notNull(),
    entryNumber: integer("entry_number").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    causeCode: text("cause_code")
      .notNull()
      .references(() => causes.code),
    descriptiveVersion: text("descriptive_version").notNull(),
    round: smallint("round").notNull().default(1),
    editHash: text("edit_hash").notNull(),
    viewHash: text("view_hash").notNull(),
    editLink: text("edit_link"),
    viewLink: text("view_link"),
    nolTracking: jsonb("nol_tracking").$type<boolean[]>().notNull().default([]),
    nolMailingDate: jsonb("nol_mailing_date").$type<(string | null)[]>().notNull().default([]),
    nolProofOfDelivery: jsonb("nol_proof_of_delivery").$type<boolean[]>().notNull().default([]),
    /** The day each round was delivered, where the member gave it (the round's window opens then). */
    nolDeliveryDate: jsonb("nol_delivery_date").$type<(string | null)[]>().notNull().default([]),
    continueRespondents: jsonb("continue_respondents").$type<boolean[]>().notNull().default([]),
    continueExtraRespondentsR2: jsonb("continue_extra_respondents_r2").$type<boolean[]>().notNull().default([]),
    continueExtraRespondentsR3: jsonb("continue_extra_respondents_r3").$type<boolean[]>().notNull().default([]),
    respStatus: jsonb("resp_status").$type<boolean[]>().notNull().default([]),
    respStatus2: jsonb("resp_status2").$type<boolean[]>().notNull().default([]),
    respStatus3: jsonb("resp_status3").$type<boolean[]>().notNull().default([]),
    tbValue: smallint("tb_value"),
    tbName: text("tb_name"),
    billMailingDate: date("bill_mailing_date"),
    billProofOfDelivery: boolean("bill_proof_of_delivery"),
    billDeliveryDate: date("bill_delivery_date"),
    billTracking: text("bill_tracking"),
    preparationDate: date("preparation_date"),
    preparationDate1tb: date("preparation_date_1tb"),
    administrativeJudgment: bigint("administrative_judgment", { mode: "number" }),
    administrativeJudgment1tb: bigint("administrative_judgment_1tb", { mode: "number" }),
    escalationFee: bigint("escalation_fee", { mode: "number" }),
    trueBillTotal: bigint("true_bill_total", { mode: "number" }),
    firstTrueBillTotal: bigint("first_true_bill_total", { mode: "number" }),
    /** DailyAmount, R9..R16RespondentType, TotalRespondents, TotalExtraRespondentsR2/R3. */
    profile: jsonb("profile").$type<Record<string, unknown>>(),
    /** MailingDate, Track1..n. */
    mail: jsonb("mail").$type<Record<string, unknown>>(),
    /** The whole submitted form, as the forms provider sent it. */
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("nol_entries_form_entry_key").on(t.formId, t.entryNumber),
    index("nol_entries_user_cause_idx").on(t.userId, t.causeCode, t.descriptiveVersion),
    uniqueIndex("nol_entries_edit_hash_key").on(t.editHash),
    uniqueIndex("nol_entries_view_hash_key").on(t.viewHash),
  ],
);

/**
 * A member version's NoL features (spec §3): its cause's defaults when its first entry was
 * made, then as an admin sets them. Changing a cause's defaults changes new versions only.
 */
export const nolVersionFeatures = pgTable(
  "nol_version_features",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    causeCode: text("cause_code")
      .notNull()
      .references(() => causes.code),
    descriptiveVersion: text("descriptive_version").notNull(),
    features: jsonb("features").$type<{ AllowNotarizeOnline: boolean }>().notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.causeCode, t.descriptiveVersion] })],
);

/**
 * The reminders sent about a version (decision 035): one row per version, kind and round,
 * written before its e-mail, so that however many sweeps run at once each reminder goes once.
 */
export const nolReminders = pgTable(
  "nol_reminders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    causeCode: text("cause_code")
      .notNull()
      .references(() => causes.code),
    descriptiveVersion: text("descriptive_version").notNull(),
    kind: text("kind").$type<ReminderKind>().notNull(),
    round: smallint("round").notNull(),
    dueOn: date("due_on").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("nol_reminders_once_key").on(t.userId, t.causeCode, t.descriptiveVersion, t.kind, t.round)],
);

/** The kinds of reminder a member has turned off, on the profile or from a mail's link. */
export const reminderOptOuts = pgTable(
  "reminder_opt_outs",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<ReminderKind>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);

export const respondents = pgTable(
  "respondents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    entryId: text("entry_id")
      .notNull()
      .references(() => nolEntries.id, { onDelete: "cascade" }),
    slot: smallint("slot").notNull(),
    name: text("name").notNull(),
    type: text("type").notNull(),
    address: jsonb("address").$type<Record<string, string>>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("respondents_entry_slot_key").on(t.entryId, t.slot),
    check("respondents_slot_range", sql`${t.slot} between 1 and 16`),
  ],
);

/** Another member allowed to edit a member's NoL entries (authEditor). */
export const nolEditors = pgTable(
  "nol_editors",
  {
    ownerUserId: uuid("owner_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    editorUserId: uuid("editor_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.ownerUserId, t.editorUserId] })],
);

/** spec §3 "Pending submission body": a form was submitted, the entry has not arrived yet. */
export const pendingSubmissions = pgTable(
  "pending_submissions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    username: text("username").notNull(),
    causeCode: text("cause_code").notNull(),
    descriptiveVersion: text("descriptive_version").notNull(),
    priorRows: integer("prior_rows").notNull(),
    entryId: text("entry_id"),
    priorUpdated: timestamp("prior_updated", { withTimezone: true }),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("pending_submissions_user_idx").on(t.userId, t.causeCode)],
);

export const reviewStatus = pgEnum("review_status", ["pending", "approved", "rejected"]);

/** Entries of the other forms (support, respondent search, suggestion, reassessment, correction). */
export const formEntries = pgTable(
  "form_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    formId: integer("form_id").notNull(),
    entryNumber: integer("entry_number").notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    editHash: text("edit_hash").notNull(),
    viewHash: text("view_hash").notNull(),
    /** With hosted forms: the entry's id there ("<form>-<number>") and its own links. */
    hostedId: text("hosted_id").unique(),
    editLink: text("edit_link"),
    viewLink: text("view_link"),
    /** Suggestions and reassessment requests wait for an admin: pending, then approved or rejected. */
    reviewStatus: reviewStatus("review_status"),
    reviewNote: text("review_note"),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    reviewedBy: uuid("reviewed_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("form_entries_form_entry_key").on(t.formId, t.entryNumber),
    index("form_entries_user_idx").on(t.userId),
    index("form_entries_review_idx").on(t.reviewStatus, t.createdAt),
  ],
);

/** The community's known respondents: the seed's and the approved suggestions. */
export const directoryRespondents = pgTable(
  "directory_respondents",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    type: text("type").notNull(),
    agency: text("agency"),
    place: text("place"),
    address: text("address"),
    /** The suggestion it came from, if any. */
    suggestionId: uuid("suggestion_id").references(() => formEntries.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("directory_respondents_name_place_key").on(sql`lower(${t.name})`, sql`lower(coalesce(${t.place}, ''))`),
  ],
);

// ── Document templates (DESIGN.md §6 "Documents", docs/decisions/020) ──

export const documentKind = pgEnum("document_kind", ["notice", "true-bill", "proof-of-service"]);

/**
 * The text a notice's or a true bill's document is made from, with named placeholders. A
 * template's scope is its cause (null: any) and round (null: any of its kind); each save makes
 * a new version of the scope, and the newest version is the one in use. Rows are never changed.
 */
export const documentTemplates = pgTable(
  "document_templates",
  {
    id: serial("id").primaryKey(),
    causeCode: text("cause_code").references(() => causes.code),
    kind: documentKind("kind").notNull(),
    round: smallint("round"),
    version: integer("version").notNull(),
    body: text("body").notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("document_templates_scope_version_key").on(
      sql`coalesce(${t.causeCode}, '')`,
      t.kind,
      sql`coalesce(${t.round}, 0)`,
      t.version,
    ),
    check("document_templates_version_positive", sql`${t.version} >= 1`),
    check(
      "document_templates_round_of_kind",
      // Compared as text: a migration that adds a kind cannot name the new value in the same transaction.
      sql`${t.round} is null or (${t.kind}::text = 'notice' and ${t.round} between 1 and 3) or (${t.kind}::text = 'true-bill' and ${t.round} >= 4) or (${t.kind}::text = 'proof-of-service' and ${t.round} >= 1)`,
    ),
  ],
);

// ── Claims, notices, notarizations (spec §3 "Notice") ──

export const claims = pgTable(
  "claims",
  {
    id: serial("claim_id").primaryKey(),
    claimantId: uuid("claimant_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    causeCode: text("cause_code")
      .notNull()
      .references(() => causes.code),
    countryCode: char("country_code", { length: 2 })
      .notNull()
      .references(() => countries.code),
    nolVersion: text("nol_version").notNull(),
    exhibitId: text("exhibit_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("claims_claimant_cause_version_key").on(t.claimantId, t.causeCode, t.nolVersion)],
);

export const notices = pgTable(
  "notices",
  {
    id: serial("notice_id").primaryKey(),
    claimId: integer("claim_id")
      .notNull()
      .references(() => claims.id, { onDelete: "cascade" }),
    roundCnt: smallint("round_cnt").notNull(),
    /** The template version its document was first made with; kept, so the document does not change under it. */
    documentTemplateId: integer("document_template_id").references(() => documentTemplates.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("notices_claim_round_key").on(t.claimId, t.roundCnt),
    check("notices_round_positive", sql`${t.roundCnt} >= 1`),
  ],
);

export const noticeCfs = pgTable(
  "notice_cfs",
  {
    id: serial("notice_cf_id").primaryKey(),
    noticeId: integer("notice_id")
      .notNull()
      .references(() => notices.id, { onDelete: "cascade" }),
    cfFormId: integer("cf_form_id").notNull(),
    cfNumber: integer("cf_number").notNull(),
    cfVersion: text("cf_version").notNull(),
    cfCreated: timestamp("cf_created", { withTimezone: true }),
    cfUpdated: timestamp("cf_updated", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("notice_cfs_notice_key").on(t.noticeId),
    index("notice_cfs_entry_idx").on(t.cfFormId, t.cfNumber),
  ],
);

/** The documents of a notice that are notarized online. */
export const NOTARIZED_DOCUMENTS = ["notice", "proof-of-service"] as const;
export type NotarizedDocument = (typeof NOTARIZED_DOCUMENTS)[number];

export const notarizations = pgTable(
  "notarizations",
  {
    id: serial("notarize_id").primaryKey(),
    noticeId: integer("notice_id")
      .notNull()
      .references(() => notices.id, { onDelete: "cascade" }),
    /** What is notarized: the notice itself, or its round's proof of service (decision 036). */
    document: text("document", { enum: NOTARIZED_DOCUMENTS }).notNull().default("notice"),
    provider: text("provider", { enum: ["sandbox", "proof"] }).notNull(),
    nzId: text("nz_id"),
    cost: integer("cost"),
    nzCreated: timestamp("nz_created", { withTimezone: true }),
    nzUpdated: timestamp("nz_updated", { withTimezone: true }),
    nzStatus: text("nz_status"),
    nzStatus2: text("nz_status2"),
    accessUrl: text("access_url"),
    /**
     * The letters of the document sent to the notary, in order, with how many pages each took
     * (a document that is no letter: one entry, slot null): the notarized PDF is cut by it into
     * the letter the mail house prints for each respondent, the notary's own pages after it.
     */
    letterPages: jsonb("letter_pages").$type<{ slot: number | null; pages: number }[]>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("notarizations_notice_document_key").on(t.noticeId, t.document),
    uniqueIndex("notarizations_nz_id_key").on(t.provider, t.nzId),
    check("notarizations_document_known", sql`${t.document} in ('notice', 'proof-of-service')`),
  ],
);

// ── Mailings: round notices printed and mailed by the mail house (decision 049) ──

/**
 * "Mail it for me" for one round: the addresses the member typed, what the mail house made of
 * them, the ones confirmed, the price quoted, and the checkout that pays for it. One a round;
 * its letters are the `mailings` rows made once it is paid.
 */
export const mailingOrders = pgTable(
  "mailing_orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    entryId: text("entry_id")
      .notNull()
      .references(() => nolEntries.id, { onDelete: "cascade" }),
    causeCode: text("cause_code")
      .notNull()
      .references(() => causes.code),
    descriptiveVersion: text("descriptive_version").notNull(),
    round: smallint("round").notNull(),
    /** The round's orders in turn: a later one mails again the respondents an earlier one's letters did not serve. */
    sequence: smallint("sequence").notNull().default(1),
    fromAddress: jsonb("from_address").$type<PostalAddress | null>(),
    /** Each respondent's letter as the member left it on the page (domain/mailing/order.ts). */
    recipients: jsonb("recipients").$type<unknown[]>().notNull().default([]),
    perEnvelopeCents: integer("per_envelope_cents").notNull().default(0),
    totalCents: integer("total_cents").notNull().default(0),
    status: text("status").$type<"draft" | "paying" | "paid" | "sent">().notNull().default("draft"),
    checkoutId: uuid("checkout_id").references(() => checkouts.id, { onDelete: "set null" }),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("mailing_orders_round_key").on(t.entryId, t.round, t.sequence),
    uniqueIndex("mailing_orders_checkout_key").on(t.checkoutId),
    index("mailing_orders_user_idx").on(t.userId, t.causeCode, t.descriptiveVersion),
    check("mailing_orders_status_known", sql`${t.status} in ('draft', 'paying', 'paid', 'sent')`),
    check("mailing_orders_amounts", sql`${t.perEnvelopeCents} >= 0 and ${t.totalCents} >= 0`),
  ],
);

/**
 * One certified letter: a round's notice to one respondent of a member's version, sent by the
 * mail house. The row is written before the mail house is asked (its idempotency key and the
 * entry, round and slot are unique), and only the request that wrote it, or one that takes
 * over a claim gone stale, asks the mail house: one letter per respondent per round.
 */
export const mailings = pgTable(
  "mailings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The entry of the round: the creator entry for a notice, the true bill's for a bill. */
    entryId: text("entry_id")
      .notNull()
      .references(() => nolEntries.id, { onDelete: "cascade" }),
    causeCode: text("cause_code")
      .notNull()
      .references(() => causes.code),
    descriptiveVersion: text("descriptive_version").notNull(),
    round: smallint("round").notNull(),
    slot: smallint("slot").notNull(),
    provider: text("provider").$type<"sandbox" | "lob">().notNull(),
    /** The addresses as the member confirmed them. */
    fromAddress: jsonb("from_address").$type<PostalAddress>().notNull(),
    toAddress: jsonb("to_address").$type<PostalAddress>().notNull(),
    /** The mail house's id of the letter; null until it answered. */
    letterId: text("letter_id"),
    trackingNumber: text("tracking_number"),
    state: text("state").$type<MailingState>().notNull().default("sending"),
    /**
     * The respondent's envelopes of the round in turn: a later one is mailed when an earlier one
     * was cancelled or returned, and the earlier row stays as the record of what happened to it.
     */
    envelope: smallint("envelope").notNull().default(1),
    /** Tries after a refusal: each has its own idempotency key. */
    attempt: smallint("attempt").notNull().default(1),
    idempotencyKey: text("idempotency_key").notNull(),
    /** When a request took the send on itself; null once none is asking the mail house. */
    sendingSince: timestamp("sending_since", { withTimezone: true }),
    /** The mail house's send date: it can be cancelled until then. */
    sendDate: timestamp("send_date", { withTimezone: true }),
    expectedDeliveryDate: date("expected_delivery_date"),
    mailedAt: timestamp("mailed_at", { withTimezone: true }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    returnedAt: timestamp("returned_at", { withTimezone: true }),
    /** Why it was returned to sender, refused or failed, in the mail house's words. */
    reason: text("reason"),
    /** The newest event heard of it: a poll asks after letters quiet for long. */
    lastEventAt: timestamp("last_event_at", { withTimezone: true }),
    polledAt: timestamp("polled_at", { withTimezone: true }),
    /** When the member was e-mailed that it came back. */
    returnNoticeAt: timestamp("return_notice_at", { withTimezone: true }),
    /** What the member paid for it. */
    costCents: integer("cost_cents").notNull(),
    /** The order (and so the payment) it was paid by; null for a letter the community paid. */
    orderId: uuid("order_id").references(() => mailingOrders.id, { onDelete: "set null" }),
    /** When its cost was given back (cancelled, or refused by the mail house), and the provider's refund. */
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    refundRef: text("refund_ref"),
    /** The electronic return receipt the mail house gave on delivery (a PDF, base64), and when. */
    returnReceiptPdf: text("return_receipt_pdf"),
    returnReceiptAt: timestamp("return_receipt_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("mailings_idempotency_key").on(t.idempotencyKey),
    uniqueIndex("mailings_entry_round_slot_key").on(t.entryId, t.round, t.slot, t.envelope),
    uniqueIndex("mailings_letter_key").on(t.provider, t.letterId),
    index("mailings_user_idx").on(t.userId, t.causeCode, t.descriptiveVersion),
    index("mailings_state_idx").on(t.state, t.lastEventAt),
    check("mailings_slot_range", sql`${t.slot} between 1 and 16`),
    check("mailings_cost_positive", sql`${t.costCents} >= 0`),
    check(
      "mailings_state_known",
      sql`${t.state} in ('sending', 'created', 'mailed', 'in_transit', 'delivered', 'returned_to_sender', 'cancelled', 'failed')`,
    ),
  ],
);

/**
 * What the member recorded of one respondent's service in a round, by hand: a letter mailed
 * (its day and tracking number), its delivery or its return as the tracking page gave it, or
 * the respondent left out of the round (with the reason the proof of service states). Kept as
 * recorded, never changed: a later record follows an earlier one (a letter mailed again).
 * The letters mailed from the app are the `mailings` rows; domain/nol/service.ts reads both.
 */
export const serviceRecords = pgTable(
  "service_records",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The entry of the round: the creator entry for a notice, the true bill's for a bill. */
    entryId: text("entry_id")
      .notNull()
      .references(() => nolEntries.id, { onDelete: "cascade" }),
    round: smallint("round").notNull(),
    slot: smallint("slot").notNull(),
    kind: text("kind").$type<ServiceRecordKind>().notNull(),
    /** The day it was mailed, delivered or returned (a calendar day, as the steps take them). */
    day: date("day"),
    trackingNumber: text("tracking_number"),
    /** Why the respondent was left out of the round. */
    reason: text("reason"),
    /**
     * A letter the app mailed before it was mailed again from the app: its mail house id (its
     * row then stands for the new letter); null for what the member recorded by hand.
     */
    letterId: text("letter_id"),
    /** Who recorded it: the member, or an editor or admin for them. */
    recordedBy: uuid("recorded_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("service_records_round_idx").on(t.entryId, t.round, t.id),
    index("service_records_user_idx").on(t.userId),
    check("service_records_slot_range", sql`${t.slot} between 1 and 16`),
    check("service_records_kind_known", sql`${t.kind} in ('mailed', 'delivered', 'returned', 'left_out')`),
  ],
);

/**
 * The member's electronic signature of a round's notice (ESIGN/UETA practice): the consent they
 * gave and its words, the signature drawn or typed, and the record of the act — who, when, from
 * which session and address, and the SHA-256 of the document as it stood when signed. A new
 * signature of the same round is a new row; the newest is the one printed.
 */
export const SIGNATURE_METHODS = ["drawn", "typed"] as const;
export type SignatureMethod = (typeof SIGNATURE_METHODS)[number];

export const roundSignatures = pgTable(
  "round_signatures",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The entry of the round: the creator entry for a notice, the true bill's for a bill. */
    entryId: text("entry_id")
      .notNull()
      .references(() => nolEntries.id, { onDelete: "cascade" }),
    round: smallint("round").notNull(),
    method: text("method").$type<SignatureMethod>().notNull(),
    /** The signer's full name as typed: the typed signature itself, and the printed name beside a drawn one. */
    signerName: text("signer_name").notNull(),
    /** A drawn signature: a PNG, base64. */
    imagePng: text("image_png"),
    /** The words of the consent to sign electronically the member agreed to, as shown. */
    consentText: text("consent_text").notNull(),
    /** The SHA-256 (hex) of the document signed, as it stood when signed. */
    documentSha256: char("document_sha256", { length: 64 }).notNull(),
    /** The template version the document was made with. */
    templateId: integer("template_id"),
    /** The downloaded PDF carries the signature (true), or keeps a line to sign by hand (false). */
    onDownload: boolean("on_download").notNull().default(true),
    /** A reference to the session it was made from: a hash of its id, never the id itself. */
    sessionRef: text("session_ref").notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [
    index("round_signatures_round_idx").on(t.entryId, t.round, t.createdAt),
    index("round_signatures_user_idx").on(t.userId),
    check("round_signatures_method_known", sql`${t.method} in ('drawn', 'typed')`),
  ],
);

/** The mail house's events, stored by their id: each is applied once, however often it is told. */
export const mailingEvents = pgTable(
  "mailing_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    provider: text("provider").$type<"sandbox" | "lob">().notNull(),
    eventId: text("event_id").notNull(),
    /** The letter it is about, when it is one of ours. */
    mailingId: uuid("mailing_id").references(() => mailings.id, { onDelete: "set null" }),
    letterId: text("letter_id"),
    type: text("type").notNull(),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    body: jsonb("body").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("mailing_events_event_key").on(t.provider, t.eventId),
    index("mailing_events_mailing_idx").on(t.mailingId, t.occurredAt),
  ],
);

// ── Site operations: error reports, newsletter, support, mail, webhooks, jobs, audit ──

export const errorReports = pgTable(
  "error_reports",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    time: timestamp("time", { withTimezone: true }).notNull(),
    href: text("href").notNull(),
    message: text("message").notNull(),
    stack: text("stack"),
    state: jsonb("state"),
    userAgent: text("user_agent"),
    ip: text("ip"),
    createdAt: createdAt(),
  },
  (t) => [index("error_reports_created_idx").on(t.createdAt)],
);

export const newsletterStatus = pgEnum("newsletter_status", ["pending", "confirmed", "unsubscribed"]);

export const newsletterSubscriptions = pgTable(
  "newsletter_subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    status: newsletterStatus("status").notNull().default("pending"),
    confirmTokenHash: text("confirm_token_hash"),
    unsubscribeTokenHash: text("unsubscribe_token_hash").notNull(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("newsletter_email_key").on(sql`lower(${t.email})`)],
);

export const supportRequests = pgTable("support_requests", {
  id: uuid("id").primaryKey().defaultRandom(),
  userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
  email: text("email").notNull(),
  name: text("name"),
  subject: text("subject"),
  message: text("message").notNull(),
  source: text("source").notNull().default("Member Site"),
  formEntryId: uuid("form_entry_id").references(() => formEntries.id, { onDelete: "set null" }),
  createdAt: createdAt(),
});

export const mailStatus = pgEnum("mail_status", ["pending", "sent", "failed"]);

/** Every outgoing e-mail; the built-in mail provider stops here, SMTP sends from here. */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html"),
    /** Headers of its own: a reminder's one-click unsubscribe (List-Unsubscribe). */
    headers: jsonb("headers").$type<Record<string, string>>(),
    template: text("template"),
    status: mailStatus("status").notNull().default("pending"),
    attempts: smallint("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** When a pending message is tried next (SMTP only). */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    createdAt: createdAt(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    index("mail_outbox_status_idx").on(t.status, t.createdAt),
    index("mail_outbox_due_idx").on(t.status, t.nextAttemptAt),
  ],
);

/** Provider webhooks, stored by event id so a retried delivery changes nothing. */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    provider: text("provider").notNull(),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    payload: jsonb("payload").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp("processed_at", { withTimezone: true }),
    error: text("error"),
  },
  (t) => [uniqueIndex("webhook_events_provider_event_key").on(t.provider, t.eventId)],
);

// ── Members imports ──────────────────────────────────────────────────────────

export const memberImportStatus = pgEnum("member_import_status", [
  "checking",
  "checked",
  "queued",
  "running",
  "done",
  "failed",
]);
export const memberImportAction = pgEnum("member_import_action", ["create", "update", "skip"]);

/** A CSV of members an admin brought: checked first (the dry run), then imported by a background job. */
export const memberImports = pgTable(
  "member_imports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    adminId: uuid("admin_id").references(() => users.id, { onDelete: "set null" }),
    fileName: text("file_name").notNull(),
    /** How the file was read: utf-8, or windows-1252 for a file that is not UTF-8. */
    encoding: text("encoding").notNull(),
    /** The file's columns and what each was read as (or null: not read). */
    columns: jsonb("columns").$type<{ header: string; field: string | null }[]>().notNull(),
    status: memberImportStatus("status").notNull().default("checking"),
    invite: boolean("invite").notNull().default(true),
    total: integer("total").notNull().default(0),
    /** What the dry run found. */
    toCreate: integer("to_create").notNull().default(0),
    toUpdate: integer("to_update").notNull().default(0),
    toSkip: integer("to_skip").notNull().default(0),
    /** What the import did, so far. */
    processed: integer("processed").notNull().default(0),
    created: integer("created").notNull().default(0),
    updated: integer("updated").notNull().default(0),
    skipped: integer("skipped").notNull().default(0),
    invited: integer("invited").notNull().default(0),
    error: text("error"),
    createdAt: createdAt(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("member_imports_created_idx").on(t.createdAt)],
);

/** One line of an import's file: what it holds, what the dry run planned, and what the import did. */
export const memberImportRows = pgTable(
  "member_import_rows",
  {
    importId: uuid("import_id")
      .notNull()
      .references(() => memberImports.id, { onDelete: "cascade" }),
    /** The record's line in the file (a cell with line breaks makes the next record's line later). */
    line: integer("line").notNull(),
    email: text("email").notNull(),
    /** The member as read (ImportedMember), or null for a line that could not be read. */
    member: jsonb("member"),
    action: memberImportAction("action").notNull(),
    reason: text("reason").notNull().default(""),
    outcome: memberImportAction("outcome"),
    outcomeReason: text("outcome_reason"),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    grantedAt: timestamp("granted_at", { withTimezone: true }),
    invitedAt: timestamp("invited_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.importId, t.line] }),
    index("member_import_rows_pending_idx")
      .on(t.importId, t.line)
      .where(sql`${t.outcome} is null`),
    index("member_import_rows_invite_idx")
      .on(t.importId, t.line)
      .where(sql`${t.outcome} = 'create' and ${t.invitedAt} is null`),
  ],
);

export const jobStatus = pgEnum("job_status", ["queued", "running", "done", "failed"]);

/** Durable background work (mail delivery, webhook retries, provider polling). */
export const jobs = pgTable(
  "jobs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    queue: text("queue").notNull(),
    payload: jsonb("payload").notNull(),
    status: jobStatus("status").notNull().default("queued"),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    attempts: smallint("attempts").notNull().default(0),
    maxAttempts: smallint("max_attempts").notNull().default(5),
    lockedAt: timestamp("locked_at", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("jobs_ready_idx").on(t.status, t.runAt)],
);

export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    actorUserId: uuid("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    /** The member represented in agent mode. */
    agentUserId: uuid("agent_user_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    entity: text("entity").notNull(),
    entityId: text("entity_id"),
    data: jsonb("data"),
    /** The address the request came from. */
    ip: text("ip"),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_log_created_idx").on(t.createdAt),
    index("audit_log_entity_idx").on(t.entity, t.entityId),
    index("audit_log_actor_idx").on(t.actorUserId, t.createdAt),
  ],
);

export const backupKind = pgEnum("backup_kind", ["manual", "daily"]);
export const backupStatus = pgEnum("backup_status", ["queued", "running", "done", "failed"]);

/**
 * A backup of the database (decision 043): a file in BACKUP_DIR on the server named by `host`,
 * written by a job. One is queued or running at a time.
 */
export const backups = pgTable(
  "backups",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: backupKind("kind").notNull(),
    status: backupStatus("status").notNull().default("queued"),
    /** The admin who asked for it; null for a daily one. */
    adminId: uuid("admin_id").references(() => users.id, { onDelete: "set null" }),
    /** pg_dump's custom format (postgres) or the embedded database's gzipped data directory (pglite). */
    driver: text("driver").$type<"postgres" | "pglite">().notNull(),
    fileName: text("file_name").notNull(),
    /** The server that writes the file, and its process, which a restart on that host checks. */
    host: text("host"),
    pid: integer("pid"),
    /** Tables dumped of all the tables, as pg_dump says it goes. */
    progressDone: integer("progress_done").notNull().default(0),
    progressTotal: integer("progress_total").notNull().default(0),
    bytes: bigint("bytes", { mode: "number" }),
    /** Of the file as it is kept: encrypted when `encryption` is set (decision 064). */
    sha256: text("sha256"),
    error: text("error"),
    /** "age" when the file is encrypted to BACKUP_ENCRYPTION_RECIPIENT; null: as dumped. */
    encryption: text("encryption").$type<"age">(),
    /** Whether BACKUP_DIR on `host` holds the file (until it is sent to the store, or for good with the local store). */
    localCopy: boolean("local_copy").notNull().default(true),
    /** When the file reached the S3-compatible store; null: it is not there (yet). */
    storedAt: timestamp("stored_at", { withTimezone: true }),
    /** Rows of each table in the snapshot the dump was made from, for the test restore to compare. */
    tableCounts: jsonb("table_counts").$type<Record<string, number>>(),
    /** Asked to be test-restored as it is made (the only time the server can read an encrypted one). */
    verify: boolean("verify").notNull().default(false),
    verifyStatus: text("verify_status").$type<"passed" | "failed">(),
    /** What the test restore found: tables compared, those that differ, the stored copy's check. */
    verifyReport: jsonb("verify_report").$type<BackupVerifyReport>(),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    createdAt: createdAt(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    /** Written as the work goes on: a running backup whose heartbeat stopped long ago has died with its server. */
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("backups_created_idx").on(t.createdAt),
    // One backup at a time: a second request while one is under way is refused by the database itself.
    uniqueIndex("backups_one_at_a_time_idx")
      .on(sql`(true)`)
      .where(sql`${t.status} in ('queued', 'running')`),
  ],
);

export const memberArchiveStatus = pgEnum("member_archive_status", ["queued", "running", "done", "failed", "expired"]);

/**
 * A member's download of their own data (decision 050): one ZIP file under DATA_DIR on the
 * server named by `host`, made by a job, sent as a link that works once until `expires_at`.
 */
export const memberArchives = pgTable(
  "member_archives",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: memberArchiveStatus("status").notNull().default("queued"),
    /** The day (UTC) it was asked for: one a day, those that failed aside. */
    requestedOn: date("requested_on").notNull(),
    host: text("host"),
    /** Files written of all the files the archive holds. */
    progressDone: integer("progress_done").notNull().default(0),
    progressTotal: integer("progress_total").notNull().default(0),
    bytes: bigint("bytes", { mode: "number" }),
    error: text("error"),
    createdAt: createdAt(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    /** Written as the work goes on: a running archive whose heartbeat stopped long ago died with its server. */
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /** Until when its link works; its file is removed then (or once downloaded). */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    downloadedAt: timestamp("downloaded_at", { withTimezone: true }),
  },
  (t) => [
    index("member_archives_user_idx").on(t.userId, t.createdAt),
    uniqueIndex("member_archives_one_a_day_idx")
      .on(t.userId, t.requestedOn)
      .where(sql`${t.status} <> 'failed'`),
  ],
);
