import type { Logger } from "pino";
import type { AppConfig } from "~/config/config.server";
import type { Database } from "~/db/client.server";
import { communityFor } from "~/domain/community";
import { localBackupStore } from "./backup-store/local.server";
import { s3BackupStore } from "./backup-store/s3.server";
import type { BackupStore } from "./backup-store/types";
import { builtinForms } from "./forms/builtin.server";
import { cognitoForms } from "./forms/cognito.server";
import type { FormsProvider } from "./forms/types";
import { doceboLearningSite } from "./learning-site/docebo.server";
import type { LearningSiteProvider } from "./learning-site/types";
import { outboxMailer } from "./mail/outbox.server";
import { retryPendingMail, smtpMailer, smtpTransport } from "./mail/smtp.server";
import type { MailCounter, MailProvider } from "./mail/types";
import { lobMailHouse } from "./mailhouse/lob.server";
import { sandboxMailHouse } from "./mailhouse/sandbox.server";
import type { MailHouse, SandboxMailHouse } from "./mailhouse/types";
import { proofNotary } from "./notary/proof.server";
import { sandboxNotary } from "./notary/sandbox.server";
import type { NotaryProvider, SandboxNotary } from "./notary/types";
import { sandboxPayments } from "./payments/sandbox.server";
import { stripePayments } from "./payments/stripe.server";
import type { PaymentsProvider, SandboxPayments } from "./payments/types";

/** Mail, with what the SMTP adapter adds: waiting for sends in flight, and the retry sweep. */
export type Mailer = MailProvider & {
  readonly name: "outbox" | "smtp";
  /** Resolves when the e-mails being handed to the mail server are done (before shutdown, in tests). */
  settled(): Promise<void>;
  /** Tries again the e-mails the server did not take; nothing to do for the outbox. */
  retryPending(now?: Date): Promise<{ sent: number; failed: number }>;
};

/** Every outside service, each behind its interface, chosen once from the configuration. */
export type Providers = {
  payments: PaymentsProvider;
  /** The same provider when it is the built-in sandbox, with its own pages' calls; else null. */
  paymentsSandbox: SandboxPayments | null;
  notary: NotaryProvider;
  /** The notary when it is the built-in sandbox, with its signer page's calls; else null. */
  notarySandbox: SandboxNotary | null;
  /** Who prints and mails certified letters. */
  mailhouse: MailHouse;
  /** The mail house when it is the built-in sandbox, with its clock's steps and kept events; else null. */
  mailhouseSandbox: SandboxMailHouse | null;
  forms: FormsProvider;
  mail: Mailer;
  learningSite: LearningSiteProvider;
  /** Where backup files are kept: BACKUP_DIR here, or the S3-compatible store. */
  backupStore: BackupStore;
};

function mailerFrom(config: AppConfig, db: Database, logger: Logger, countMail: MailCount): Mailer {
  if (config.mail !== "smtp" || !config.smtpUrl) {
    const outbox = outboxMailer(db);
    const count: MailCounter = (outcome) => countMail("outbox", outcome);
    return {
      name: "outbox",
      async send(message) {
        try {
          await outbox.send(message);
        } catch (error) {
          count("failed");
          throw error;
        }
        count("sent");
      },
      settled: async () => {},
      retryPending: async () => ({ sent: 0, failed: 0 }),
    };
  }
  const deps = {
    db,
    transport: smtpTransport(config.smtpUrl),
    from: { name: communityFor(config.community).name, address: config.mailFrom },
    logger,
    count: (outcome: "sent" | "failed") => countMail("smtp", outcome),
  };
  const smtp = smtpMailer(deps);
  return {
    name: "smtp",
    send: (message) => smtp.send(message),
    settled: () => smtp.settled(),
    retryPending: (now = new Date()) => retryPendingMail(deps, now),
  };
}

/** Told of each e-mail handed over or not, by the transport that took it. */
export type MailCount = (transport: Mailer["name"], outcome: "sent" | "failed") => void;

/** Builds the providers the configuration names; the built-in ones are the default. */
export function buildProviders(config: AppConfig, db: Database, logger: Logger, countMail: MailCount): Providers {
  const sandbox = config.payments === "sandbox" ? sandboxPayments(db) : null;
  const notarySandbox = config.notary === "sandbox" ? sandboxNotary(db, config.baseUrl) : null;
  const mailhouseSandbox = config.mailhouse === "sandbox" ? sandboxMailHouse(db) : null;
  return {
    payments: sandbox ?? stripePayments(config),
    paymentsSandbox: sandbox,
    notary: notarySandbox ?? proofNotary(config),
    notarySandbox,
    mailhouse: mailhouseSandbox ?? lobMailHouse(config),
    mailhouseSandbox,
    forms:
      config.forms === "cognito" && config.cognitoApiKey
        ? cognitoForms({ apiUrl: config.cognitoApiUrl, apiKey: config.cognitoApiKey })
        : builtinForms(db),
    mail: mailerFrom(config, db, logger, countMail),
    learningSite: doceboLearningSite({
      handoffSecret: config.lrmHandoffSecret,
      ssoUrl: config.lrmSsoUrl,
      ssoSecret: config.lrmSsoSecret,
    }),
    backupStore:
      config.backupStore.kind === "s3" ? s3BackupStore(config.backupStore) : localBackupStore(config.backups.dir),
  };
}
