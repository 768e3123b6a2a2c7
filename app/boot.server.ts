import { existsSync } from "node:fs";
import path from "node:path";
import type { Logger } from "pino";
import type { AppConfig } from "./config/config.server";
import type { AppServices } from "./context";
import { sql } from "drizzle-orm";
import { openDatabase, type DatabaseHandle } from "./db/client.server";
import { users } from "./db/schema";
import { seedScale, type ScaleOptions } from "./db/seed-scale.server";
import { demoLogins, seedDemo, seedDocumentDefaults } from "./db/seed.server";
import { buildProviders } from "./providers/index.server";
import { resetFactors } from "./services/factors/records.server";
import { preloadDocumentFonts } from "./services/documents/pdf.server";
import { createMetrics, type Metrics } from "./services/metrics.server";
import { watchDatabase } from "./services/metrics-database.server";
import { createOwnedCache, listeningOwnedCache } from "./services/owned-cache.server";
import { createReferenceCache, listeningReferenceCache } from "./services/reference-cache.server";
import { createViewerCache, listeningViewerCache } from "./services/viewer-cache.server";

export function openConfiguredDatabase(config: AppConfig, logger: Logger, metrics?: Metrics): Promise<DatabaseHandle> {
  const timeQuery = metrics?.queryRun;
  return config.databaseUrl
    ? openDatabase({
        driver: "postgres",
        url: config.databaseUrl,
        poolMax: config.databasePoolMax,
        onPoolError: (error) => logger.warn({ err: error }, "a pooled PostgreSQL connection failed"),
        timeQuery,
      })
    : openDatabase({ driver: "pglite", dir: path.join(config.dataDir, "pgdata"), timeQuery });
}

/** Whether the embedded database is still to be made (its directory holds no cluster yet). */
export function embeddedDatabaseIsNew(config: AppConfig): boolean {
  return !config.databaseUrl && !existsSync(path.join(config.dataDir, "pgdata", "PG_VERSION"));
}

/**
 * The migrations, the document defaults and, when allowed, the demo: what a new database needs.
 * `step` says what is under way, for a first start that would otherwise be silent for a while.
 */
async function prepare(
  database: DatabaseHandle,
  config: AppConfig,
  logger: Logger,
  step: (message: string) => void = () => {},
) {
  step("applying the migrations");
  await database.migrate();
  step("adding the document templates");
  await seedDocumentDefaults(database.db);
  if (config.seedDemo) {
    step("seeding the demo community");
    const seeded = await seedDemo(database.db, { demoPassword: config.demoPassword });
    if (seeded) logger.info("seeded the demo community into the new database");
  }
}

/**
 * Makes a new database and closes it. The server runs this in a worker thread on a first
 * start: the migrations and the seed grow PGlite's WASM memory, which never shrinks while the
 * instance lives, and a worker's memory goes back to the system when it ends.
 */
export async function prepareDatabase(config: AppConfig, logger: Logger): Promise<void> {
  const started = Date.now();
  const step = (message: string) => logger.info(`making the embedded database: ${message}`);
  step("creating its files");
  const database = await openConfiguredDatabase(config, logger);
  try {
    await prepare(database, config, logger, step);
  } finally {
    await database.close();
  }
  logger.info(`the embedded database is made, in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** `npm run seed:scale`: the database made as a first start makes it, then a community of the given size added. */
export async function seedScaleTask(config: AppConfig, logger: Logger, options: Omit<ScaleOptions, "log">) {
  const database = await openConfiguredDatabase(config, logger);
  try {
    await prepare(database, config, logger);
    await seedScale(database, { ...options, log: (message) => logger.info(message) });
  } finally {
    await database.close();
  }
}

/**
 * `npm run mfa:reset -- USERNAME`: removes every second factor of a member who lost them all
 * (the last admin among them), from the server's own shell: audited as the operator's, the
 * member e-mailed, their sessions ended (decision 045). Answers the member's name, or null.
 */
export async function resetFactorsTask(config: AppConfig, logger: Logger, username: string): Promise<string | null> {
  const database = await openConfiguredDatabase(config, logger);
  try {
    await prepare(database, config, logger);
    const services = servicesFor(config, database, logger);
    const [member] = await database.db
      .select({ id: users.id, username: users.username })
      .from(users)
      .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
      .limit(1);
    if (!member) return null;
    await resetFactors(services, { actorUserId: null, agentUserId: null, ip: null }, member.id);
    return member.username;
  } finally {
    await database.close();
  }
}

/** Opens the database, applies migrations, adds the document defaults, seeds a new database with the demo when allowed. */
export async function bootApp(config: AppConfig, logger: Logger): Promise<AppServices> {
  const metrics = createMetrics({ process: true });
  const database = await openConfiguredDatabase(config, logger, metrics);
  try {
    await prepare(database, config, logger);
    await preloadDocumentFonts();
    if (!config.isProduction || config.seedDemo) {
      const logins = await demoLogins(database.db);
      if (logins.length > 0) {
        logger.info(
          { demoLogins: logins },
          `Demo logins: ${logins.join(", ")}; password: ${
            config.demoPassword === "memberhall-demo" ? "memberhall-demo" : "the DEMO_PASSWORD you set"
          }`,
        );
      }
    }
  } catch (error) {
    await database.close();
    throw error;
  }
  logger.info({ driver: database.driver }, "database ready");
  watchDatabase(metrics, database, logger);
  const services = servicesFor(config, database, logger, metrics);
  const { payments, notary, notarySandbox, mailhouse, mailhouseSandbox, mail } = services.providers;
  // The providers that deliver webhooks: the built-in ones hand their events over themselves.
  const webhookProviders = [
    ...(payments.name === "stripe" ? [payments.name] : []),
    ...(notarySandbox ? [] : [notary.name]),
    ...(mailhouseSandbox ? [] : [mailhouse.name]),
  ];
  metrics.startAtZero({ mailTransports: [mail.name], webhookProviders });
  return {
    ...services,
    viewers: listeningViewerCache(database),
    reference: listeningReferenceCache(database),
    owned: listeningOwnedCache(database),
  };
}

/** The services of a running app over an open database: the one place providers are chosen. */
export function servicesFor(
  config: AppConfig,
  database: DatabaseHandle,
  logger: Logger,
  metrics: Metrics = createMetrics(),
): AppServices {
  return {
    config,
    database,
    db: database.db,
    logger,
    providers: buildProviders(config, database.db, logger, metrics.mailSent),
    // Keeps nothing until it listens: bootApp gives the running server one that does.
    viewers: createViewerCache(),
    reference: createReferenceCache(),
    owned: createOwnedCache(),
    metrics,
  };
}
