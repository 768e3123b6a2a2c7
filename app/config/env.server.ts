import { isIP } from "node:net";
import { z } from "zod";

/**
 * Every setting the server reads from its environment, parsed once at boot.
 * Secrets may be absent here: `resolveSecrets` fills them in outside production.
 */

export const booleanFlag = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ["", "1", "0", "true", "false", "yes", "no", "on", "off"].includes(v), {
    message: "must be true or false (1/0, yes/no, on/off)",
  })
  .transform((v) => ["1", "true", "yes", "on"].includes(v));

const PROXY_NAMES = ["loopback", "linklocal", "uniquelocal"];

/** An address or a subnet in CIDR form (v4 or v6), as Express's `trust proxy` takes them. */
function proxyAddress(text: string): boolean {
  if (PROXY_NAMES.includes(text)) return true;
  const [address = "", bits, ...rest] = text.split("/");
  const version = isIP(address);
  if (!version || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

/**
 * Whom the X-Forwarded-* headers are believed from: no one (false), every hop (true), the
 * nearest N hops, or the proxies at the addresses listed. A proxy that appends to a
 * client's own X-Forwarded-For leaves the client's made-up addresses at its start, which
 * `true` would believe: `loopback` (nginx on the same host) or the proxy's address trusts
 * the one hop that is ours.
 */
const trustProxy = z
  .string()
  .trim()
  .toLowerCase()
  .default("false")
  .transform((v, ctx): boolean | number | string[] => {
    if (["", "0", "false", "no", "off"].includes(v)) return false;
    if (["true", "yes", "on"].includes(v)) return true;
    if (/^\d+$/.test(v) && Number(v) <= 10) return Number(v);
    const list = v.split(",").map((part) => part.trim());
    if (list.every(proxyAddress)) return list;
    ctx.addIssue({
      code: "custom",
      message:
        "must be false, true, a number of proxy hops (1 to 10), or proxy addresses and subnets separated by commas (loopback, 10.0.0.5, 10.0.0.0/8)",
    });
    return z.NEVER;
  });

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

const httpUrl = z
  .string()
  .trim()
  .url({ message: "must be an absolute http(s) URL" })
  .refine((v) => /^https?:\/\//.test(v), { message: "must be an absolute http(s) URL" })
  .transform((v) => v.replace(/\/+$/, ""));

/** A setting that may be left out: unset or empty reads as absent; anything else must pass `schema`. */
function omittable<T extends z.ZodTypeAny>(schema: T, { trim = true } = {}) {
  return (trim ? z.string().trim() : z.string())
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(schema.optional());
}

const optionalHttpUrl = omittable(httpUrl);

/** A whole number setting from `min` to `max`. */
const wholeNumber = (min: number, max: number, fallback: string) =>
  z
    .string()
    .default(fallback)
    .refine((v) => /^\d+$/.test(v.trim()) && Number(v) >= min && Number(v) <= max, {
      message: `must be a whole number from ${min} to ${max}`,
    })
    .transform(Number);

// A secret is taken as written: spaces are part of it.
const secret = (name: string) =>
  omittable(z.string().min(32, { message: `${name} must be at least 32 characters` }), { trim: false });

export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z
      .string()
      .default("3000")
      .refine((v) => /^\d+$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= 65535, {
        message: "must be a whole number from 1 to 65535",
      })
      .transform(Number),
    HOST: z.string().trim().min(1).default("0.0.0.0"),
    BASE_URL: optionalHttpUrl,
    DATA_DIR: z.string().trim().min(1, { message: "must not be empty" }).default("./data"),
    DATABASE_URL: omittable(
      z.string().regex(/^postgres(ql)?:\/\/\S+$/, { message: "must be a postgres:// or postgresql:// URL" }),
    ),
    DATABASE_POOL_MAX: z
      .string()
      .default("10")
      .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 200, {
        message: "must be a whole number from 1 to 200",
      })
      .transform(Number),
    COMMUNITY: z
      .enum(["default", "church"], {
        errorMap: () => ({ message: "must be default or church" }),
      })
      .default("default"),
    FORMS_URL: optionalHttpUrl,
    FREE: booleanFlag.default("false"),
    LRM_URL: optionalHttpUrl,
    PAYMENTS: z
      .enum(["sandbox", "stripe"], {
        errorMap: () => ({ message: "must be sandbox or stripe" }),
      })
      .default("sandbox"),
    STRIPE_SECRET_KEY: optionalText.pipe(
      z
        .string()
        .regex(/^(sk|rk)_(test|live)_\w+$/, { message: "must be a Stripe secret key (sk_test_… or sk_live_…)" })
        .optional(),
    ),
    STRIPE_PUBLISHABLE_KEY: optionalText.pipe(
      z
        .string()
        .regex(/^pk_(test|live)_\w+$/, { message: "must be a Stripe publishable key (pk_test_… or pk_live_…)" })
        .optional(),
    ),
    STRIPE_WEBHOOK_SECRET: optionalText.pipe(
      z
        .string()
        .regex(/^whsec_\w+$/, { message: "must be a Stripe webhook signing secret (whsec_…)" })
        .optional(),
    ),
    STRIPE_API_BASE: omittable(httpUrl).default("https://api.stripe.com"),
    PAST_DUE_GRACE_DAYS: wholeNumber(0, 60, "7"),
    DONATION_MIN_CENTS: wholeNumber(50, 100_000_000, "100"),
    DONATION_MAX_CENTS: wholeNumber(50, 100_000_000, "1000000"),
    NOTARY: z
      .enum(["sandbox", "proof"], {
        errorMap: () => ({ message: "must be sandbox or proof" }),
      })
      .default("sandbox"),
    PROOF_API_KEY: optionalText,
    PROOF_ENVIRONMENT: z
      .enum(["sandbox", "production"], {
        errorMap: () => ({ message: "must be sandbox or production" }),
      })
      .default("sandbox"),
    PROOF_API_BASE: optionalHttpUrl,
    // A secret is taken as written: spaces are part of it.
    PROOF_WEBHOOK_SECRET: omittable(z.string(), { trim: false }),
    NOTARIZE_COST_CENTS: wholeNumber(0, 100_000_000, "2500"),
    MAILHOUSE: z
      .enum(["sandbox", "lob"], { errorMap: () => ({ message: "must be sandbox or lob" }) })
      .default("sandbox"),
    // A secret key: a publishable one (test_pub_…) cannot create letters.
    LOB_API_KEY: optionalText.pipe(
      z
        .string()
        .regex(/^(test|live)_(?!pub_)\w+$/, { message: "must be a Lob secret API key (test_… or live_…)" })
        .optional(),
    ),
    LOB_WEBHOOK_SECRET: omittable(z.string(), { trim: false }),
    LOB_API_URL: omittable(httpUrl).default("https://api.lob.com"),
    /** Whether each notarize spends one of the member's notarize credits; unset: as the demo's mode. */
    NOTARIZE_CREDITS: omittable(booleanFlag),
    FORMS: z
      .enum(["builtin", "cognito"], {
        errorMap: () => ({ message: "must be builtin or cognito" }),
      })
      .default("builtin"),
    COGNITO_API_URL: optionalHttpUrl,
    COGNITO_API_KEY: optionalText,
    COGNITO_EMBED_KEY: optionalText,
    COGNITO_SUPPORT_FORM_HASH: optionalText,
    COGNITO_WEBHOOK_SECRET: optionalText.pipe(
      z.string().min(32, { message: "must be at least 32 characters" }).optional(),
    ),
    SESSION_SECRET: secret("SESSION_SECRET"),
    STATE_SECRET: secret("STATE_SECRET"),
    STATE_PRIVATE_KEY: optionalText.pipe(
      z
        .string()
        .regex(/^[0-9a-f]{64}$/i, { message: "must be 64 hex characters (a secp256k1 private key)" })
        .optional(),
    ),
    LRM_HANDOFF_SECRET: optionalText.pipe(z.string().min(32, { message: "must be at least 32 characters" }).optional()),
    LRM_SSO_URL: optionalHttpUrl,
    LRM_SSO_SECRET: optionalText,
    AFTER_LOGIN_REDIRECT: optionalHttpUrl,
    NOL_101_URL: optionalHttpUrl,
    POST_OFFICE_URL: optionalHttpUrl,
    SUPPORT_EMAIL: optionalText.pipe(z.string().email({ message: "must be an e-mail address" }).optional()),
    MAIL_FROM: optionalText.pipe(z.string().email({ message: "must be an e-mail address" }).optional()),
    MAIL: z
      .enum(["outbox", "smtp"], {
        errorMap: () => ({ message: "must be outbox or smtp" }),
      })
      .default("outbox"),
    SMTP_URL: optionalText.pipe(
      z
        .string()
        .regex(/^smtps?:\/\/[^\s/]+(:\d+)?\/?$/, { message: "must be an smtp:// or smtps:// URL" })
        .refine((v) => URL.canParse(v), { message: "must be an smtp:// or smtps:// URL" })
        .optional(),
    ),
    LOGIN_RECHECK_SECONDS: z
      .string()
      .default("300")
      .refine((v) => /^\d+$/.test(v) && Number(v) >= 60, { message: "must be a whole number of seconds, at least 60" })
      .transform(Number),
    SESSION_IDLE_DAYS: z
      .string()
      .default("7")
      .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 30, {
        message: "must be a whole number of days from 1 to 30",
      })
      .transform(Number),
    /** Whom a second factor is required of (decision 045); unset: admins on an HTTPS deployment, no one in the demo. */
    MFA_REQUIRED_FOR: optionalText.pipe(
      z.enum(["admin", "all", "none"], { errorMap: () => ({ message: "must be admin, all or none" }) }).optional(),
    ),
    SUB_RECHECK_SECONDS: z
      .string()
      .default("3600")
      .refine((v) => /^\d+$/.test(v) && Number(v) >= 60, { message: "must be a whole number of seconds, at least 60" })
      .transform(Number),
    /** The respondents' window after a notice (of liability, fault or default), in days, unless a cause sets its own. */
    NOL_NOTICE_WINDOW_DAYS: wholeNumber(1, 365, "21"),
    /** The respondents' window after a true bill, in days, unless a cause sets its own. */
    NOL_TRUE_BILL_WINDOW_DAYS: wholeNumber(1, 365, "30"),
    /** Days after a mailing with no proof of delivery that its reminder goes out. */
    NOL_PROOF_REMINDER_DAYS: wholeNumber(1, 90, "10"),
    /** Days before a true bill may go out that its reminder goes out. */
    NOL_TRUE_BILL_REMINDER_DAYS: wholeNumber(1, 30, "3"),
    /** When the reminders' sweep runs: a cron line in UTC (minute hour day month weekday). */
    NOL_REMINDERS_CRON: z
      .string()
      .trim()
      .default("7 * * * *")
      .refine((v) => /^[\d*/,-]+( [\d*/,-]+){4}$/.test(v), {
        message: 'must be a cron line of five fields, such as "7 * * * *"',
      }),
    /** Where backup files are written; unset: DATA_DIR/backups. */
    BACKUP_DIR: omittable(z.string().min(1)),
    /** When the daily backup runs: a cron line in UTC (minute hour day month weekday). */
    BACKUP_CRON: z
      .string()
      .trim()
      .default("17 3 * * *")
      .refine((v) => /^[\d*/,-]+( [\d*/,-]+){4}$/.test(v), {
        message: 'must be a cron line of five fields, such as "17 3 * * *"',
      }),
    /** Days a daily backup is kept. */
    BACKUP_RETENTION_DAYS: wholeNumber(1, 3650, "14"),
    /** Where backup files are kept: the server's own BACKUP_DIR, or an S3-compatible object store. */
    BACKUP_STORE: z.enum(["local", "s3"], { errorMap: () => ({ message: "must be local or s3" }) }).default("local"),
    /** The store's API; unset: AWS S3 in S3_REGION. */
    S3_ENDPOINT: optionalHttpUrl,
    S3_BUCKET: optionalText.pipe(
      z
        .string()
        .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, {
          message: "must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens",
        })
        .optional(),
    ),
    /** AWS's region, or the word the provider asks for ("auto" on Cloudflare R2). */
    S3_REGION: z
      .string()
      .trim()
      .default("us-east-1")
      .refine((v) => /^[a-z0-9-]+$/.test(v), { message: "must be a region such as us-east-1 (or auto)" }),
    S3_ACCESS_KEY_ID: optionalText,
    // A secret is taken as written: spaces are part of it.
    S3_SECRET_ACCESS_KEY: omittable(z.string(), { trim: false }),
    /** A folder of the bucket that holds the backups, so that one bucket can serve more than one site. */
    S3_PREFIX: optionalText.pipe(
      z
        .string()
        .refine((v) => !/(^|\/)\.{1,2}(\/|$)/.test(v) && !v.includes("//"), {
          message: 'must be a folder such as "memberhall/backups" (no "." or ".." parts, no empty ones)',
        })
        .transform((v) => `${v.replace(/^\/+|\/+$/g, "")}/`.replace(/^\/$/, ""))
        .optional(),
    ),
    /** Bucket in the path (MinIO, most self-hosted stores) rather than in the host name. */
    S3_FORCE_PATH_STYLE: booleanFlag.default("false"),
    /**
     * The age public key (age1…) every backup is encrypted to before it is written; its
     * private half is kept off the server (decision 064). Unset: backups are as dumped.
     */
    BACKUP_ENCRYPTION_RECIPIENT: omittable(
      z.string().regex(/^age1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{58}$/, {
        message: "must be an age public key: age1 and 58 more letters and digits, as age-keygen prints it",
      }),
    ),
    /** Sends backups to a remote store in the clear: only when the operator says so. */
    BACKUP_ALLOW_UNENCRYPTED: booleanFlag.default("false"),
    /** Keeps each backup's file in BACKUP_DIR too once the store has it. */
    BACKUP_KEEP_LOCAL: booleanFlag.default("false"),
    /** "daily": each daily backup is test-restored into a scratch database as it is made. */
    BACKUP_VERIFY: z.enum(["off", "daily"], { errorMap: () => ({ message: "must be off or daily" }) }).default("off"),
    /** The scratch PostgreSQL database a test restore may empty and fill; unset: DATABASE_URL's with "_restore_check" added. */
    BACKUP_VERIFY_DATABASE_URL: omittable(
      z.string().regex(/^postgres(ql)?:\/\//, { message: "must be a postgres:// connection string" }),
    ),
    /** Days a deleted account waits, undoable at login, before it is erased. */
    ACCOUNT_DELETION_GRACE_DAYS: wholeNumber(0, 365, "14"),
    /** The folder of pg_dump and pg_restore; unset: the PATH's. */
    PG_BIN_DIR: omittable(z.string().min(1)),
    /** The carrier's tracking page; a tracking number is put at its end. */
    TRACKING_URL: z
      .string()
      .trim()
      .default("https://tools.usps.com/go/TrackConfirmAction?tLabels=")
      .refine((v) => URL.canParse(v) && /^https?:/.test(v), { message: "must be an http:// or https:// URL" }),
    CONTENT_DIR: z.string().trim().min(1, { message: "must not be empty" }).default("./content"),
    AUTH_RATE_LIMIT: z
      .string()
      .default("10")
      .refine((v) => /^\d+$/.test(v) && Number(v) >= 1, { message: "must be a whole number, at least 1" })
      .transform(Number),
    LOG_LEVEL: z
      .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
        errorMap: () => ({ message: "must be one of fatal, error, warn, info, debug, trace, silent" }),
      })
      .default("info"),
    /** json: one JSON object per line (production, log collectors); text: short lines for a person at a terminal. */
    LOG_FORMAT: z.enum(["json", "text"], { errorMap: () => ({ message: "must be json or text" }) }).default("json"),
    TRUST_PROXY: trustProxy,
    /** Names each answer's database query count in its Server-Timing header (benchmarks, profiling). */
    SERVER_TIMING: booleanFlag.default("false"),
    SEED_DEMO: booleanFlag.default("false"),
    /**
     * The demo (`npm start`): generated secrets, demo data and logins, no BASE_URL to set,
     * even on React's production build (NODE_ENV=production). Never on a deployment.
     */
    DEMO: booleanFlag.default("false"),
    DEMO_PASSWORD: z.string().min(8, { message: "must be at least 8 characters" }).default("memberhall-demo"),
    /** Opens /metrics on the app's port to requests that send it as a bearer token. */
    METRICS_TOKEN: secret("METRICS_TOKEN"),
    /** A port of its own that serves /metrics alone, on METRICS_HOST. */
    METRICS_PORT: omittable(
      z
        .string()
        .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 65535, {
          message: "must be a whole number from 1 to 65535",
        })
        .transform(Number),
    ),
    METRICS_HOST: z.string().trim().min(1, { message: "must not be empty" }).default("127.0.0.1"),
    SHUTDOWN_TIMEOUT_MS: z
      .string()
      .default("10000")
      .refine((v) => /^\d+$/.test(v), { message: "must be a whole number of milliseconds" })
      .transform(Number),
  })
  .superRefine((env, ctx) => {
    if (env.PAYMENTS === "stripe") {
      for (const name of ["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET"] as const) {
        if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: "is required when PAYMENTS=stripe" });
      }
    }
    if (env.DONATION_MIN_CENTS > env.DONATION_MAX_CENTS) {
      ctx.addIssue({ code: "custom", path: ["DONATION_MIN_CENTS"], message: "must not be above DONATION_MAX_CENTS" });
    }
    if (env.NOTARY === "proof") {
      for (const name of ["PROOF_API_KEY", "PROOF_WEBHOOK_SECRET"] as const) {
        if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: "is required when NOTARY=proof" });
      }
    }
    if (env.MAILHOUSE === "lob") {
      for (const name of ["LOB_API_KEY", "LOB_WEBHOOK_SECRET"] as const) {
        if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: "is required when MAILHOUSE=lob" });
      }
    }
    if (env.FORMS === "cognito") {
      for (const name of ["COGNITO_API_KEY", "COGNITO_EMBED_KEY", "COGNITO_WEBHOOK_SECRET"] as const) {
        if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: "is required when FORMS=cognito" });
      }
    }
    if (env.BACKUP_STORE === "s3") {
      // Never a default: a store's keys are the one thing that can read or erase every backup.
      for (const name of ["S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const) {
        if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: "is required when BACKUP_STORE=s3" });
      }
      if (!env.BACKUP_ENCRYPTION_RECIPIENT && !env.BACKUP_ALLOW_UNENCRYPTED)
        ctx.addIssue({
          code: "custom",
          path: ["BACKUP_ENCRYPTION_RECIPIENT"],
          message:
            "is required when BACKUP_STORE=s3: backups leave this server only encrypted (an age public key, see README's Backups), unless BACKUP_ALLOW_UNENCRYPTED=true",
        });
    }
    if (env.MAIL === "smtp" && !env.SMTP_URL) {
      ctx.addIssue({ code: "custom", path: ["SMTP_URL"], message: "is required when MAIL=smtp" });
    }
    if (env.LRM_SSO_URL && !env.LRM_SSO_SECRET) {
      ctx.addIssue({ code: "custom", path: ["LRM_SSO_SECRET"], message: "is required when LRM_SSO_URL is set" });
    }
    if (env.METRICS_PORT === env.PORT) {
      ctx.addIssue({ code: "custom", path: ["METRICS_PORT"], message: "must differ from PORT" });
    }
    if (env.NODE_ENV === "production" && !env.DEMO) {
      for (const name of ["SESSION_SECRET", "STATE_SECRET", "STATE_PRIVATE_KEY", "BASE_URL"] as const) {
        if (!env[name]) {
          ctx.addIssue({ code: "custom", path: [name], message: "is required when NODE_ENV=production" });
        }
      }
    }
  });

export type Env = z.infer<typeof envSchema>;

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** The env var names this schema reads, for documentation checks. */
export const envVarNames = Object.keys(envSchema._def.schema.shape) as (keyof Env)[];

/**
 * Parses the environment. Problems become one line that names each variable and what is
 * wrong with it, so a bad deployment fails fast and legibly.
 */
/**
 * A URL's password is never echoed: `smtp://user:secret@host` is shown as
 * `smtp://user:***@host`, whatever the password holds ("/", "@", spaces…).
 */
function withoutPassword(value: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)(.*)@([^@]*)$/is.exec(value);
  if (!match) return value;
  const [, scheme, userinfo, rest] = match;
  const colon = userinfo!.indexOf(":");
  return colon < 0 ? value : `${scheme}${userinfo!.slice(0, colon)}:***@${rest}`;
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  return parseWith(envSchema, source);
}

/**
 * What a restore needs, as the server reads it: where the database is, and the backup store a
 * backup is read from (`s3://…` or `--latest`). The store's keys are checked when a restore reads
 * the store, not here: a restore from a file needs none.
 */
const storageSchema = envSchema._def.schema.pick({
  DATA_DIR: true,
  DATABASE_URL: true,
  PG_BIN_DIR: true,
  BACKUP_STORE: true,
  S3_ENDPOINT: true,
  S3_BUCKET: true,
  S3_REGION: true,
  S3_ACCESS_KEY_ID: true,
  S3_SECRET_ACCESS_KEY: true,
  S3_PREFIX: true,
  S3_FORCE_PATH_STYLE: true,
});

export function parseStorageEnv(source: Record<string, string | undefined>): z.infer<typeof storageSchema> {
  return parseWith(storageSchema, source);
}

function parseWith<S extends z.ZodTypeAny>(schema: S, source: Record<string, string | undefined>): z.infer<S> {
  const relevant: Record<string, string | undefined> = {};
  for (const name of envVarNames) {
    const value = source[name];
    // An empty value means "not set" for optional settings, as in most shells' .env files.
    if (value !== undefined && value !== "") relevant[name] = value;
  }
  const result = schema.safeParse(relevant);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? "environment");
    const raw = source[name];
    const shown =
      raw === undefined || /SECRET|KEY|PASSWORD|TOKEN/.test(name)
        ? ""
        : ` (got ${JSON.stringify(withoutPassword(raw))})`;
    const message = issue.message.startsWith(name) ? issue.message.slice(name.length).trim() : issue.message;
    return `${name} ${message}${shown}`;
  });
  throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`);
}
