import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { secp256k1 } from "@noble/curves/secp256k1";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils";
import { z } from "zod";
import type { ResponseWindows } from "~/domain/nol/timeline";
import type { MfaPolicy } from "~/domain/second-factor";
import { ConfigError, parseEnv, type Env } from "./env.server";

/** Proof's hosts: Fairfax is its test environment (https://dev.proof.com/docs/environments). */
export const PROOF_HOSTS = {
  sandbox: "https://api.fairfax.proof.com",
  production: "https://api.proof.com",
} as const;

export type AppConfig = {
  nodeEnv: Env["NODE_ENV"];
  isProduction: boolean;
  /** The demo's mode (DEMO=1, as `npm start` runs): generated secrets and demo data on any NODE_ENV. */
  demo: boolean;
  port: number;
  host: string;
  baseUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolMax: number;
  community: Env["COMMUNITY"];
  formsUrl: string;
  free: boolean;
  lrmUrl: string | undefined;
  payments: Env["PAYMENTS"];
  stripeSecretKey: string | undefined;
  stripePublishableKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  /** The Stripe API's address: the real one, or a local Stripe-compatible server. */
  stripeApiBase: string;
  /** Days a PAST_DUE subscription keeps its plan's features. */
  pastDueGraceDays: number;
  donationMinCents: number;
  donationMaxCents: number;
  notary: Env["NOTARY"];
  proofApiKey: string | undefined;
  proofEnvironment: Env["PROOF_ENVIRONMENT"];
  /** Proof's API root (without /v1): PROOF_API_BASE, else the host PROOF_ENVIRONMENT names. */
  proofApiBase: string;
  /** The key Proof signs its webhook deliveries with (the API key, unless the subscription has its own). */
  proofWebhookSecret: string | undefined;
  /** What one notarization costs, in cents: the `cost` a notice's notarization records (spec §3). */
  notarizeCostCents: number;
  /** Notarizing costs money: each notarize spends one notarize credit (NOTARIZE_CREDITS, else the demo's mode). */
  notarizeNeedsCredit: boolean;
  /** Who prints and mails letters: the built-in sandbox, or Lob. */
  mailhouse: Env["MAILHOUSE"];
  lobApiKey: string | undefined;
  /** The secret Lob signs its webhook deliveries with (the webhook's own, from Lob's dashboard). */
  lobWebhookSecret: string | undefined;
  /** Lob's API root (without /v1): the real one, or a local Lob-compatible server. */
  lobApiUrl: string;
  sessionSecret: string;
  stateSecret: string;
  statePrivateKey: string;
  statePublicKey: string;
  logLevel: Env["LOG_LEVEL"];
  logFormat: Env["LOG_FORMAT"];
  /** Express's `trust proxy`: whose X-Forwarded-* headers are believed (TRUST_PROXY). */
  trustProxy: boolean | number | string[];
  serverTiming: boolean;
  seedDemo: boolean;
  demoPassword: string;
  shutdownTimeoutMs: number;
  /** Where /metrics is served: on the app's port to the bearer of `token`, on a port of its own, both or neither. */
  metrics: { token: string | undefined; port: number | undefined; host: string };
  lrmHandoffSecret: string | undefined;
  lrmSsoUrl: string | undefined;
  lrmSsoSecret: string | undefined;
  afterLoginRedirect: string | undefined;
  nol101Url: string | undefined;
  postOfficeUrl: string | undefined;
  /** The respondents' windows, in days, where a cause sets none (docs/decisions/034-response-windows.md). */
  responseWindows: ResponseWindows;
  /** The carrier's tracking page, a tracking number put at its end. */
  trackingUrl: string;
  /** Backups (docs/decisions/043-backups.md): their folder, the daily one's cron line, days a daily one is kept, pg_dump's folder. */
  backups: {
    dir: string;
    cron: string;
    retentionDays: number;
    pgBinDir: string | undefined;
    /** The age public key backups are encrypted to (decision 064); undefined: as dumped. */
    encryptionRecipient: string | undefined;
    /** Whether a file stays in BACKUP_DIR once the remote store has it. */
    keepLocal: boolean;
    /** Whether each daily backup is test-restored as it is made. */
    verifyDaily: boolean;
    /** The scratch PostgreSQL database of a test restore; undefined on the embedded database. */
    verifyDatabaseUrl: string | undefined;
  };
  /** Where backup files are kept (BACKUP_STORE): the server's own BACKUP_DIR, or an S3-compatible store. */
  backupStore: BackupStoreSettings;
  /** When the NoL reminders are due and how often they are looked for (decision 035). */
  reminders: { proofAfterDays: number; billAheadDays: number; cron: string };
  supportEmail: string;
  mailFrom: string;
  mail: Env["MAIL"];
  smtpUrl: string | undefined;
  loginRecheckSeconds: number;
  /** Days a session may go unused before it ends, within its absolute lifetime. */
  sessionIdleDays: number;
  /** Days a deleted account waits before it is erased (undoable at login meanwhile). */
  accountDeletionGraceDays: number;
  /** Whom a second factor is required of (MFA_REQUIRED_FOR, decision 045). */
  mfaRequiredFor: MfaPolicy;
  subRecheckSeconds: number;
  contentDir: string;
  forms: Env["FORMS"];
  authRateLimit: number;
  cognitoApiUrl: string;
  cognitoApiKey: string | undefined;
  cognitoEmbedKey: string | undefined;
  /** The shared support form's embed key (spec §3 "Support also uses a shared external form hash"). */
  cognitoSupportFormHash: string | undefined;
  cognitoWebhookSecret: string | undefined;
};

const storedSecretsSchema = z.object({
  SESSION_SECRET: z.string().min(32).optional(),
  STATE_SECRET: z.string().min(32).optional(),
  STATE_PRIVATE_KEY: z
    .string()
    .regex(/^[0-9a-f]{64}$/i)
    .optional(),
});
type StoredSecrets = z.infer<typeof storedSecretsSchema>;

function newPrivateKey(): string {
  return bytesToHex(secp256k1.utils.randomPrivateKey());
}

/**
 * Outside production a missing secret is generated once and kept in DATA_DIR, so a
 * restart keeps sessions valid without asking anyone to configure anything.
 */
function resolveSecrets(env: Env, dataDir: string): Required<StoredSecrets> {
  const given = {
    SESSION_SECRET: env.SESSION_SECRET,
    STATE_SECRET: env.STATE_SECRET,
    STATE_PRIVATE_KEY: env.STATE_PRIVATE_KEY,
  };
  if (given.SESSION_SECRET && given.STATE_SECRET && given.STATE_PRIVATE_KEY) {
    return given as Required<StoredSecrets>;
  }
  const file = path.join(dataDir, "secrets.json");
  let stored: StoredSecrets = {};
  if (existsSync(file)) {
    const parsed = storedSecretsSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
    if (!parsed.success) throw new ConfigError(`Invalid configuration: ${file} is not a valid secrets file`);
    stored = parsed.data;
  }
  const resolved = {
    SESSION_SECRET: given.SESSION_SECRET ?? stored.SESSION_SECRET ?? randomBytes(32).toString("hex"),
    STATE_SECRET: given.STATE_SECRET ?? stored.STATE_SECRET ?? randomBytes(32).toString("hex"),
    STATE_PRIVATE_KEY: given.STATE_PRIVATE_KEY ?? stored.STATE_PRIVATE_KEY ?? newPrivateKey(),
  };
  const toStore: StoredSecrets = {
    SESSION_SECRET: given.SESSION_SECRET ? stored.SESSION_SECRET : resolved.SESSION_SECRET,
    STATE_SECRET: given.STATE_SECRET ? stored.STATE_SECRET : resolved.STATE_SECRET,
    STATE_PRIVATE_KEY: given.STATE_PRIVATE_KEY ? stored.STATE_PRIVATE_KEY : resolved.STATE_PRIVATE_KEY,
  };
  if (JSON.stringify(toStore) !== JSON.stringify(stored)) {
    writeFileSync(file, JSON.stringify(toStore, null, 2) + "\n", { mode: 0o600 });
  }
  return resolved;
}

/** The backup store's settings: the local folder needs none beyond BACKUP_DIR. */
export type BackupStoreSettings =
  | { kind: "local" }
  | {
      kind: "s3";
      /** Unset: AWS S3 itself, in `region`. */
      endpoint: string | undefined;
      bucket: string;
      region: string;
      accessKeyId: string;
      secretAccessKey: string;
      /** "" or a folder ending in "/". */
      prefix: string;
      forcePathStyle: boolean;
    };

/** The test restore's scratch database beside the app's own: its name with "_restore_check" added. */
function scratchDatabaseUrl(databaseUrl: string | undefined): string | undefined {
  if (!databaseUrl) return undefined;
  const url = new URL(databaseUrl);
  url.pathname = `${url.pathname.replace(/^\//, "") || "postgres"}_restore_check`;
  return url.toString();
}

export function loadConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  const env = parseEnv(source);
  const dataDir = path.resolve(env.DATA_DIR);
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    throw new ConfigError(`Invalid configuration: DATA_DIR cannot be created (${(error as Error).message})`);
  }
  const secrets = resolveSecrets(env, dataDir);
  const baseUrl = env.BASE_URL ?? `http://localhost:${env.PORT}`;
  return {
    nodeEnv: env.NODE_ENV,
    // A deployment: the demo runs React's production build too, but keeps its generated
    // secrets, demo data and plain-HTTP cookies.
    isProduction: env.NODE_ENV === "production" && !env.DEMO,
    demo: env.DEMO,
    port: env.PORT,
    host: env.HOST,
    baseUrl,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    databasePoolMax: env.DATABASE_POOL_MAX,
    community: env.COMMUNITY,
    formsUrl: env.FORMS_URL ?? `${baseUrl}/api/forms`,
    free: env.FREE,
    lrmUrl: env.LRM_URL,
    payments: env.PAYMENTS,
    stripeSecretKey: env.STRIPE_SECRET_KEY,
    stripePublishableKey: env.STRIPE_PUBLISHABLE_KEY,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET,
    stripeApiBase: env.STRIPE_API_BASE,
    pastDueGraceDays: env.PAST_DUE_GRACE_DAYS,
    donationMinCents: env.DONATION_MIN_CENTS,
    donationMaxCents: env.DONATION_MAX_CENTS,
    notary: env.NOTARY,
    proofApiKey: env.PROOF_API_KEY,
    proofEnvironment: env.PROOF_ENVIRONMENT,
    proofApiBase: env.PROOF_API_BASE ?? PROOF_HOSTS[env.PROOF_ENVIRONMENT],
    proofWebhookSecret: env.PROOF_WEBHOOK_SECRET,
    notarizeCostCents: env.NOTARIZE_COST_CENTS,
    notarizeNeedsCredit: env.NOTARIZE_CREDITS ?? env.DEMO,
    mailhouse: env.MAILHOUSE,
    lobApiKey: env.LOB_API_KEY,
    lobWebhookSecret: env.LOB_WEBHOOK_SECRET,
    lobApiUrl: env.LOB_API_URL,
    sessionSecret: secrets.SESSION_SECRET,
    stateSecret: secrets.STATE_SECRET,
    statePrivateKey: secrets.STATE_PRIVATE_KEY,
    statePublicKey: bytesToHex(secp256k1.getPublicKey(hexToBytes(secrets.STATE_PRIVATE_KEY), true)),
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT,
    trustProxy: env.TRUST_PROXY,
    serverTiming: env.SERVER_TIMING,
    seedDemo: env.NODE_ENV !== "production" || env.DEMO || env.SEED_DEMO,
    demoPassword: env.DEMO_PASSWORD,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    metrics: { token: env.METRICS_TOKEN, port: env.METRICS_PORT, host: env.METRICS_HOST },
    lrmHandoffSecret: env.LRM_HANDOFF_SECRET,
    lrmSsoUrl: env.LRM_SSO_URL,
    lrmSsoSecret: env.LRM_SSO_SECRET,
    afterLoginRedirect: env.AFTER_LOGIN_REDIRECT,
    nol101Url: env.NOL_101_URL,
    postOfficeUrl: env.POST_OFFICE_URL,
    responseWindows: {
      notice: env.NOL_NOTICE_WINDOW_DAYS,
      fault: env.NOL_NOTICE_WINDOW_DAYS,
      default: env.NOL_NOTICE_WINDOW_DAYS,
      "true-bill": env.NOL_TRUE_BILL_WINDOW_DAYS,
    },
    trackingUrl: env.TRACKING_URL,
    backups: {
      dir: path.resolve(env.BACKUP_DIR ?? path.join(dataDir, "backups")),
      cron: env.BACKUP_CRON,
      retentionDays: env.BACKUP_RETENTION_DAYS,
      pgBinDir: env.PG_BIN_DIR ? path.resolve(env.PG_BIN_DIR) : undefined,
      encryptionRecipient: env.BACKUP_ENCRYPTION_RECIPIENT,
      keepLocal: env.BACKUP_KEEP_LOCAL,
      verifyDaily: env.BACKUP_VERIFY === "daily",
      verifyDatabaseUrl: env.BACKUP_VERIFY_DATABASE_URL ?? scratchDatabaseUrl(env.DATABASE_URL),
    },
    backupStore:
      env.BACKUP_STORE === "s3"
        ? {
            kind: "s3",
            endpoint: env.S3_ENDPOINT,
            bucket: env.S3_BUCKET!,
            region: env.S3_REGION,
            accessKeyId: env.S3_ACCESS_KEY_ID!,
            secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
            prefix: env.S3_PREFIX ?? "",
            forcePathStyle: env.S3_FORCE_PATH_STYLE,
          }
        : { kind: "local" },
    reminders: {
      proofAfterDays: env.NOL_PROOF_REMINDER_DAYS,
      billAheadDays: env.NOL_TRUE_BILL_REMINDER_DAYS,
      cron: env.NOL_REMINDERS_CRON,
    },
    supportEmail: env.SUPPORT_EMAIL ?? `support@${new URL(baseUrl).hostname}`,
    mailFrom: env.MAIL_FROM ?? `no-reply@${new URL(baseUrl).hostname}`,
    mail: env.MAIL,
    smtpUrl: env.SMTP_URL,
    loginRecheckSeconds: env.LOGIN_RECHECK_SECONDS,
    sessionIdleDays: env.SESSION_IDLE_DAYS,
    accountDeletionGraceDays: env.ACCOUNT_DELETION_GRACE_DAYS,
    mfaRequiredFor: env.MFA_REQUIRED_FOR ?? (!env.DEMO && new URL(baseUrl).protocol === "https:" ? "admin" : "none"),
    subRecheckSeconds: env.SUB_RECHECK_SECONDS,
    contentDir: path.resolve(env.CONTENT_DIR),
    forms: env.FORMS,
    authRateLimit: env.AUTH_RATE_LIMIT,
    cognitoApiUrl: env.COGNITO_API_URL ?? "https://www.cognitoforms.com",
    cognitoApiKey: env.COGNITO_API_KEY,
    cognitoEmbedKey: env.COGNITO_EMBED_KEY,
    cognitoSupportFormHash: env.COGNITO_SUPPORT_FORM_HASH,
    cognitoWebhookSecret: env.COGNITO_WEBHOOK_SECRET,
  };
}

/** The spec §3 "Config values" as GET /api/config sends them, plus the state key. */
export function publicConfig(config: AppConfig) {
  return {
    formsUrl: config.formsUrl,
    community: config.community,
    baseUrl: config.baseUrl,
    free: config.free,
    nodeEnv: config.nodeEnv,
    isTestNotarize: config.notary === "sandbox" || config.proofEnvironment === "sandbox",
    isTestStripe: config.payments === "sandbox" || (config.stripeSecretKey?.includes("_test_") ?? false),
    lrm: config.lrmUrl ?? null,
    statePublicKey: config.statePublicKey,
  };
}
export type PublicConfig = ReturnType<typeof publicConfig>;
