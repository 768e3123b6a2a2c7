import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "./env.server";

function errorOf(source: Record<string, string>): string {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected the configuration to be refused");
}

describe("parseEnv", () => {
  it("applies the documented defaults to an empty environment", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      NODE_ENV: "development",
      PORT: 3000,
      DATA_DIR: "./data",
      COMMUNITY: "default",
      FREE: false,
      PAYMENTS: "sandbox",
      NOTARY: "sandbox",
      DEMO_PASSWORD: "memberhall-demo",
    });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("refuses PORT=abc with one line that names PORT and the value", () => {
    const message = errorOf({ PORT: "abc" });
    expect(message).toBe('Invalid configuration: PORT must be a whole number from 1 to 65535 (got "abc")');
    expect(message).not.toContain("\n");
  });

  it.each([["0"], ["65536"], ["80.5"], ["-1"]])("refuses PORT=%s", (port) => {
    expect(errorOf({ PORT: port })).toContain("PORT must be a whole number");
  });

  it("names every bad variable on the same line", () => {
    const message = errorOf({ PORT: "x", COMMUNITY: "club", FREE: "maybe" });
    expect(message).toContain("PORT must be");
    expect(message).toContain('COMMUNITY must be default or church (got "club")');
    expect(message).toContain("FREE must be true or false");
    expect(message.split("\n")).toHaveLength(1);
  });

  it("accepts a postgres:// or postgresql:// DATABASE_URL and refuses anything else", () => {
    expect(parseEnv({ DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test" }).DATABASE_URL).toBe(
      "postgres://postgres@127.0.0.1:5432/test",
    );
    expect(parseEnv({ DATABASE_URL: "postgresql://u:p@db/app" }).DATABASE_URL).toBe("postgresql://u:p@db/app");
    expect(errorOf({ DATABASE_URL: "mysql://localhost/db" })).toContain("DATABASE_URL must be a postgres://");
  });

  it("reads boolean flags in their common spellings", () => {
    expect(parseEnv({ FREE: "1" }).FREE).toBe(true);
    expect(parseEnv({ FREE: "Yes" }).FREE).toBe(true);
    expect(parseEnv({ FREE: "off" }).FREE).toBe(false);
  });

  it.each([
    ["", false],
    ["off", false],
    ["true", true],
    ["1", 1],
    ["2", 2],
    ["loopback", ["loopback"]],
    ["Loopback, 10.0.0.0/8, ::1, fd00::/8", ["loopback", "10.0.0.0/8", "::1", "fd00::/8"]],
  ] as const)("reads TRUST_PROXY=%j as Express's trust proxy %j", (value, expected) => {
    expect(parseEnv({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it.each([["11"], ["nginx"], ["10.0.0.0/33"], ["10.0.0.1/8/1"], ["loopback,"], ["256.1.1.1"]])(
    "refuses TRUST_PROXY=%s with what it takes",
    (value) => {
      expect(errorOf({ TRUST_PROXY: value })).toContain("TRUST_PROXY must be false, true, a number of proxy hops");
    },
  );

  it("checks the metrics settings, without echoing the token", () => {
    const env = parseEnv({});
    expect([env.METRICS_TOKEN, env.METRICS_PORT, env.METRICS_HOST]).toEqual([undefined, undefined, "127.0.0.1"]);
    const short = errorOf({ METRICS_TOKEN: "short-metrics-token" });
    expect(short).toContain("METRICS_TOKEN must be at least 32 characters");
    expect(short).not.toContain("short-metrics-token");
    expect(errorOf({ METRICS_PORT: "70000" })).toContain("METRICS_PORT must be a whole number from 1 to 65535");
    expect(errorOf({ PORT: "3000", METRICS_PORT: "3000" })).toContain("METRICS_PORT must differ from PORT");
    expect(parseEnv({ METRICS_PORT: "9464", METRICS_HOST: "10.0.0.5" })).toMatchObject({
      METRICS_PORT: 9464,
      METRICS_HOST: "10.0.0.5",
    });
  });

  it("strips a trailing slash from URLs and refuses relative ones", () => {
    expect(parseEnv({ BASE_URL: "https://members.example.org/" }).BASE_URL).toBe("https://members.example.org");
    expect(errorOf({ LRM_URL: "learn.example.org" })).toContain("LRM_URL must be an absolute http(s) URL");
  });

  it("requires the secrets and BASE_URL in production, without echoing secret values", () => {
    const message = errorOf({ NODE_ENV: "production" });
    for (const name of ["SESSION_SECRET", "STATE_SECRET", "STATE_PRIVATE_KEY", "BASE_URL"]) {
      expect(message).toContain(`${name} is required when NODE_ENV=production`);
    }
    const short = errorOf({ SESSION_SECRET: "too-short-secret-value" });
    expect(short).toContain("SESSION_SECRET must be at least 32 characters");
    expect(short).not.toContain("too-short-secret-value");
  });

  it("requires a provider's key when the real provider is chosen", () => {
    for (const name of ["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET"]) {
      expect(errorOf({ PAYMENTS: "stripe" })).toContain(`${name} is required when PAYMENTS=stripe`);
    }
    for (const name of ["PROOF_API_KEY", "PROOF_WEBHOOK_SECRET"]) {
      expect(errorOf({ NOTARY: "proof" })).toContain(`${name} is required when NOTARY=proof`);
    }
    const stripe = {
      PAYMENTS: "stripe",
      STRIPE_SECRET_KEY: "sk_test_abc123",
      STRIPE_PUBLISHABLE_KEY: "pk_test_abc123",
      STRIPE_WEBHOOK_SECRET: "whsec_abc123",
    };
    expect(parseEnv(stripe)).toMatchObject({ PAYMENTS: "stripe", STRIPE_API_BASE: "https://api.stripe.com" });
    expect(errorOf({ ...stripe, STRIPE_PUBLISHABLE_KEY: "sk_test_abc" })).toContain(
      "STRIPE_PUBLISHABLE_KEY must be a Stripe publishable key",
    );
    expect(errorOf({ DONATION_MIN_CENTS: "5000", DONATION_MAX_CENTS: "100" })).toContain(
      "DONATION_MIN_CENTS must not be above DONATION_MAX_CENTS",
    );
  });

  it("mails through the sandbox unless MAILHOUSE=lob, which needs Lob's secret key and webhook secret", () => {
    expect(parseEnv({})).toMatchObject({ MAILHOUSE: "sandbox", LOB_API_URL: "https://api.lob.com" });
    for (const name of ["LOB_API_KEY", "LOB_WEBHOOK_SECRET"]) {
      expect(errorOf({ MAILHOUSE: "lob" })).toContain(`${name} is required when MAILHOUSE=lob`);
    }
    const lob = {
      MAILHOUSE: "lob",
      LOB_API_KEY: "test_0dc8d51e0acffcb1880e0f19c79b2f5b0cc",
      LOB_WEBHOOK_SECRET: " s ",
    };
    expect(parseEnv({ ...lob, LOB_API_URL: "http://127.0.0.1:4011/" })).toMatchObject({
      MAILHOUSE: "lob",
      LOB_WEBHOOK_SECRET: " s ",
      LOB_API_URL: "http://127.0.0.1:4011",
    });
    expect(errorOf({ ...lob, LOB_API_KEY: "test_pub_abc123" })).toContain("LOB_API_KEY must be a Lob secret API key");
    expect(errorOf({ ...lob, LOB_API_KEY: "test_pub_abc123" })).not.toContain("test_pub_abc123");
    expect(errorOf({ MAILHOUSE: "usps" })).toContain("MAILHOUSE must be sandbox or lob");
  });

  it("reads Proof's address and the notarizing cost, and keeps a webhook secret as written", () => {
    expect(parseEnv({}).NOTARIZE_COST_CENTS).toBe(2500);
    expect(parseEnv({}).PROOF_API_BASE).toBeUndefined();
    expect(parseEnv({ PROOF_API_BASE: "http://127.0.0.1:4010/", NOTARIZE_COST_CENTS: "0" })).toMatchObject({
      PROOF_API_BASE: "http://127.0.0.1:4010",
      NOTARIZE_COST_CENTS: 0,
    });
    expect(parseEnv({ PROOF_WEBHOOK_SECRET: " key with spaces " }).PROOF_WEBHOOK_SECRET).toBe(" key with spaces ");
    expect(errorOf({ PROOF_API_BASE: "api.proof.com" })).toContain("PROOF_API_BASE must be an absolute http(s) URL");
    expect(errorOf({ NOTARIZE_COST_CENTS: "12.50" })).toContain("NOTARIZE_COST_CENTS must be a whole number");
  });

  it("sends mail to the outbox by default and needs an smtp:// or smtps:// SMTP_URL with MAIL=smtp", () => {
    expect(parseEnv({}).MAIL).toBe("outbox");
    expect(errorOf({ MAIL: "smtp" })).toContain("SMTP_URL is required when MAIL=smtp");
    expect(errorOf({ MAIL: "sendmail" })).toContain("MAIL must be outbox or smtp");
    const env = parseEnv({ MAIL: "smtp", SMTP_URL: "smtps://mailer:p%40ss@mail.example.org:465" });
    expect(env.SMTP_URL).toBe("smtps://mailer:p%40ss@mail.example.org:465");
  });

  it("never echoes the password of a refused URL", () => {
    const message = errorOf({ MAIL: "smtp", SMTP_URL: "http://mailer:hunter2-secret@mail.example.org" });
    expect(message).toContain("SMTP_URL must be an smtp:// or smtps:// URL");
    expect(message).toContain("mailer:***@mail.example.org");
    expect(message).not.toContain("hunter2-secret");
    expect(errorOf({ DATABASE_URL: "mysql://app:db-secret@db.example.org/app" })).not.toContain("db-secret");
    const slashed = errorOf({ SMTP_URL: "smtp://AKIAEXAMPLE:BFa/3xkSECRET+Yq@email-smtp.example.org:587" });
    expect(slashed).not.toContain("3xkSECRET");
    expect(slashed).toContain("AKIAEXAMPLE:***@email-smtp.example.org:587");
    expect(errorOf({ SMTP_URL: "smtp://u:p@ss word@host" })).not.toContain("ss word");
  });

  it("treats an empty value as unset", () => {
    const env = parseEnv({ PORT: "", DATABASE_URL: "" });
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBeUndefined();
  });
});
