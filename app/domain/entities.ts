import { z } from "zod";

/**
 * The public entities of spec §3, as the JSON API sends them. GET /api/schema publishes
 * these as JSON Schema; the API routes validate what they send against them in tests.
 */

const isoTime = z.string().datetime({ offset: true });
const nullableTime = isoTime.nullable();

export const sessionStateSchema = z.object({
  username: z.string(),
  email: z.string().email(),
  verified_email: z.boolean(),
  admin: z.boolean(),
  agent: z.string().nullable().describe("The username of the member an admin is acting for"),
  user_id: z.string().uuid().nullable(),
  needsSetup: z.boolean(),
  sub_id: z.string().nullable(),
  sub_status: z.string().nullable(),
  expiration: nullableTime,
  login_recheck: z.number().int().nonnegative().describe("Seconds between login rechecks"),
  login_at_checked: isoTime,
  sub_recheck: z.number().int().nonnegative().describe("Seconds between subscription rechecks"),
  sub_checked: nullableTime,
  stateHash: z.string(),
  stateString: z.string(),
  nolCreator: z.boolean(),
  nolTester: z.boolean(),
  country: z.string().length(2).nullable(),
});

export const authEntrySchema = z.object({
  username: z.string(),
  country: z.string().length(2).nullable(),
  email: z.string().email(),
  hash: z.string().nullable().describe("null for a member who is neither a NoL creator nor a tester"),
});

export const notarizeSchema = z.object({
  notarize_id: z.number().int(),
  nz_id: z.string().nullable(),
  created_at: isoTime,
  updated_at: isoTime,
  cost: z.number().int().nullable().describe("Cents"),
  nz_created: nullableTime,
  nz_updated: nullableTime,
  nz_status: z.string().nullable(),
  nz_status2: z.string().nullable(),
  access_url: z.string().url().nullable(),
});

export const noticeSchema = z.object({
  notice_id: z.number().int(),
  claim_id: z.number().int(),
  round_cnt: z.number().int().positive(),
  created_at: isoTime,
  updated_at: isoTime,
  notarize: notarizeSchema.nullable(),
  claim: z.object({
    claim_id: z.number().int(),
    claimant_id: z.string().uuid(),
    cause_code: z.string(),
    country_code: z.string().length(2),
    nol_version: z.string(),
    created_at: isoTime,
    updated_at: isoTime,
    exhibit_id: z.string().nullable(),
  }),
  notice_cf: z.object({
    notice_cf_id: z.number().int(),
    cf_form_id: z.number().int(),
    cf_number: z.number().int(),
    cf_created: nullableTime,
    cf_updated: nullableTime,
    cf_version: z.string(),
  }),
});

/** GET /api/nol/notices: "list of notices" (spec §7). */
export const noticesResultSchema = z.object({ list: z.array(noticeSchema) });

export const planSchema = z.object({ id: z.string(), title: z.string() });

export const couponSchema = z.object({
  coupon_id: z.string(),
  name: z.string(),
  duration: z.enum(["once", "repeating", "forever"]),
  duration_in_months: z.number().int().positive().nullable(),
  redeem_by: z.number().int().nullable().describe("Unix seconds"),
  amount_off: z.number().int().positive().nullable().describe("Cents"),
  percent_off: z.number().positive().max(100).nullable(),
  valid: z.boolean(),
  data: z.object({ name: z.string(), valid: z.boolean() }),
});

export const couponPlansSchema = z.object({ coupon_id: z.string(), plans: z.array(z.string()) });

export const couponDiscountSchema = z.object({
  coupon_discount_id: z.number().int(),
  active: z.boolean(),
  group_name: z.string().nullable(),
  welcome_message: z.string().nullable(),
  coupon_slug: z.string(),
  coupon_plans: z.array(couponPlansSchema),
  coupon_id: z.string(),
  coupon_name: z.string(),
  coupon_valid: z.boolean(),
});

const flags = z.array(z.boolean());

export const nolEntrySchema = z
  .object({
    id: z.string(),
    form: z.enum(["NoLCreator2", "NoLProfileBilling", "NoLBilling"]),
    username: z.string(),
    cause: z.string(),
    descriptive_version: z.string(),
    updated: isoTime,
    round: z.number().int(),
    edit_link: z.string().nullable(),
    view_link: z.string().nullable(),
    nol_tracking: flags,
    nol_mailing_date: z.array(z.string().nullable()),
    nol_proof_of_delivery: flags,
    continue_respondents: flags.max(8),
    continue_extra_respondents_r2: flags.max(4),
    continue_extra_respondents_r3: flags.max(4),
    resp_status: flags,
    resp_status2: flags,
    resp_status3: flags,
    tb_value: z.number().int().nullable(),
    tb_name: z.string().nullable(),
    bill_mailing_date: z.string().nullable(),
    bill_proof_of_delivery: z.boolean().nullable(),
    bill_tracking: z.string().nullable(),
    preparation_date: z.string().nullable(),
    preparation_date_1tb: z.string().nullable(),
    administrative_judgment: z.number().nullable(),
    administrative_judgment_1tb: z.number().nullable(),
    escalation_fee: z.number().nullable(),
    true_bill_total: z.number().nullable(),
    first_true_bill_total: z.number().nullable(),
    profile: z
      .object({
        DailyAmount: z.number().nullable().optional(),
        TotalRespondents: z.number().int().nullable().optional(),
        TotalExtraRespondentsR2: z.number().int().nullable().optional(),
        TotalExtraRespondentsR3: z.number().int().nullable().optional(),
      })
      .catchall(z.unknown())
      .nullable()
      .describe("Also R9RespondentType … R16RespondentType"),
    mail: z
      .object({ MailingDate: z.string().nullable().optional() })
      .catchall(z.unknown())
      .nullable()
      .describe("Also Track1 … Trackn"),
  })
  .catchall(z.unknown())
  .describe("A member version; the entry hash is carried as an extra key");

export const pendingSubmissionSchema = z.object({
  username: z.string(),
  cause: z.string(),
  descriptive_version: z.string(),
  prior_rows: z.number().int().nonnegative(),
  entry_id: z.string().nullable(),
  prior_updated: nullableTime,
});

export const memberVersionsResultSchema = z.object({
  list: z.array(nolEntrySchema),
  pending: z.array(pendingSubmissionSchema),
  nolFeatures: z.array(
    z.object({ CauseCode: z.string(), DescriptiveVersion: z.string(), AllowNotarizeOnline: z.boolean().optional() }),
  ),
  userAuthInfo: authEntrySchema.nullable(),
});

export const causeCatalogueSchema = z.object({
  causes: z.record(z.object({ label: z.string(), name: z.string() })),
  countryCauses: z.record(
    z.object({
      live_causes: z.array(z.string()),
      testing_causes: z.array(z.string()),
      beta_causes: z.array(z.string()),
    }),
  ),
  mnInviteLink: z.string().url().nullable(),
  mightyLinks: z.record(z.string().url()),
});

export const publicConfigSchema = z.object({
  formsUrl: z.string().url(),
  community: z.enum(["default", "church"]),
  baseUrl: z.string().url(),
  free: z.boolean(),
  nodeEnv: z.enum(["development", "production", "test"]),
  isTestNotarize: z.boolean(),
  isTestStripe: z.boolean(),
  lrm: z.string().url().nullable(),
  statePublicKey: z
    .string()
    .regex(/^0[23][0-9a-f]{64}$/)
    .describe("The server's compressed secp256k1 public key"),
});

/** Name → schema, in the order GET /api/schema lists them. */
export const publicEntities = {
  Config: publicConfigSchema,
  CauseCatalogue: causeCatalogueSchema,
  SessionState: sessionStateSchema,
  AuthEntry: authEntrySchema,
  Notice: noticeSchema,
  NoticesResult: noticesResultSchema,
  Plan: planSchema,
  Coupon: couponSchema,
  CouponDiscount: couponDiscountSchema,
  NolEntry: nolEntrySchema,
  MemberVersionsResult: memberVersionsResultSchema,
  PendingSubmission: pendingSubmissionSchema,
} as const;
