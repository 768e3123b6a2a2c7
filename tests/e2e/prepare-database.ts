import { createHash, randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { secp256k1 } from "@noble/curves/secp256k1";
import { bytesToHex } from "@noble/hashes/utils";
import { eq, inArray } from "drizzle-orm";
import { loadConfig } from "~/config/config.server";
import { migrationsFolder, openDatabase, type Database } from "~/db/client.server";
import { users } from "~/db/schema";
import { seedScale } from "~/db/seed-scale.server";
import { seedDemo } from "~/db/seed.server";
import { publicKeyOf } from "~/services/state-header.server";
import { loadViewer, sessionState, siteCookies, startSession } from "~/services/session.server";
import { ROLES, writeSessionPool, type PooledSession, type SessionPool } from "./session-pool";

/** Enough for every test to take its own session of any role, several times over. */
const SESSIONS_PER_ROLE = Number(process.env.E2E_SESSIONS_PER_ROLE ?? 60);
const FRAME_SESSIONS_PER_ROLE = Math.ceil(SESSIONS_PER_ROLE / 4);

/** The secrets the test server runs with, so that the sessions made here are valid there. */
export function serverSecrets(): Record<"SESSION_SECRET" | "STATE_SECRET" | "STATE_PRIVATE_KEY", string> {
  return {
    SESSION_SECRET: randomBytes(32).toString("hex"),
    STATE_SECRET: randomBytes(32).toString("hex"),
    STATE_PRIVATE_KEY: bytesToHex(secp256k1.utils.randomPrivateKey()),
  };
}

const ROOT = path.resolve(import.meta.dirname, "../..");
const TEMPLATES = path.join(ROOT, ".cache/e2e-pgdata");

/** What a migrated empty database depends on: the PGlite release and the migrations. */
function templateKey(): string {
  const hash = createHash("sha256");
  const pglite = path.join(ROOT, "node_modules/@electric-sql/pglite/package.json");
  hash.update(JSON.parse(readFileSync(pglite, "utf8")).version as string);
  const folder = migrationsFolder();
  for (const file of [
    "meta/_journal.json",
    ...readdirSync(folder)
      .filter((f) => f.endsWith(".sql"))
      .sort(),
  ]) {
    hash.update(file).update(readFileSync(path.join(folder, file)));
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * A new embedded database costs seconds of initdb; an empty one with the migrations
 * applied is made once per PGlite release and set of migrations, and copied for each run.
 */
async function migratedTemplate(): Promise<string> {
  const key = templateKey();
  const dir = path.join(TEMPLATES, key);
  if (existsSync(path.join(dir, "PG_VERSION"))) return dir;
  mkdirSync(TEMPLATES, { recursive: true });
  for (const old of readdirSync(TEMPLATES)) {
    if (old !== key && !old.startsWith("building-"))
      rmSync(path.join(TEMPLATES, old), { recursive: true, force: true });
  }
  const building = mkdtempSync(path.join(TEMPLATES, "building-"));
  const database = await openDatabase({ driver: "pglite", dir: building });
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
  try {
    renameSync(building, dir);
  } catch (error) {
    // Another run made it first.
    rmSync(building, { recursive: true, force: true });
    if (!existsSync(path.join(dir, "PG_VERSION"))) throw error;
  }
  return dir;
}

/**
 * Does in the server's data directory what the server does when it boots (migrations, the
 * demo seed), then signs in every demo member many times over and writes the sessions to
 * the pool the fixtures take from. Runs before the server starts: the embedded database
 * opens in one process at a time.
 */
export async function prepareDatabase(env: Record<string, string>): Promise<void> {
  const config = loadConfig(env);
  const dir = path.join(config.dataDir, "pgdata");
  cpSync(await migratedTemplate(), dir, { recursive: true });
  const database = await openDatabase({ driver: "pglite", dir });
  try {
    await database.migrate();
    await seedDemo(database.db, { demoPassword: config.demoPassword });
    // A thousand more members, for the admins' list to filter and page through; one of them
    // with sessions enough for the admin's test to log one out each time it runs.
    await seedScale(database, { members: 1_000, entries: 2_000 });
    const { db } = database;
    const [listed] = await db.select({ id: users.id }).from(users).where(eq(users.username, "sm000051"));
    for (let i = 0; i < 10; i += 1) {
      await startSession(db, {
        userId: listed!.id,
        carrier: "cookie",
        ip: "198.51.100.51",
        userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0",
      });
    }
    const members = await db
      .select({ id: users.id, username: users.username })
      .from(users)
      .where(inArray(users.username, [...ROLES]));
    const cookie = siteCookies(config).session;
    const pool = { cookie: {}, frame: {} } as SessionPool;

    const pooled = async (
      row: { id: string; loginCheckedAt: Date; expiresAt: Date },
      username: string,
    ): Promise<PooledSession> => {
      const header = await cookie.serialize(row.id);
      const [pair] = header.split(";");
      const at = pair!.indexOf("=");
      return {
        id: row.id,
        username,
        cookie: {
          name: pair!.slice(0, at),
          value: pair!.slice(at + 1),
          expires: Math.floor(row.expiresAt.getTime() / 1000),
        },
        loginCheckedAt: row.loginCheckedAt.toISOString(),
      };
    };
    const meta = { ip: "127.0.0.1", userAgent: "memberhall browser tests" };

    // One transaction: the embedded database commits each statement to disk otherwise.
    await db.transaction(async (transaction) => {
      const tx = transaction as unknown as Database;
      for (const role of ROLES) {
        const member = members.find((m) => m.username === role);
        if (!member) throw new Error(`The demo seed has no member named ${role}`);
        pool.cookie[role] = [];
        for (let i = 0; i < SESSIONS_PER_ROLE; i += 1) {
          const row = await startSession(tx, { userId: member.id, carrier: "cookie", ...meta });
          pool.cookie[role].push(await pooled(row, role));
        }
        pool.frame[role] = [];
        for (let i = 0; i < FRAME_SESSIONS_PER_ROLE; i += 1) {
          const devicePrivateKey = bytesToHex(secp256k1.utils.randomPrivateKey());
          const row = await startSession(tx, {
            userId: member.id,
            carrier: "state",
            devicePublicKey: publicKeyOf(devicePrivateKey),
            ...meta,
          });
          const viewer = await loadViewer(tx, row.id);
          if (!viewer) throw new Error(`The session just made for ${role} does not load`);
          const state = sessionState(viewer, config);
          pool.frame[role].push({
            ...(await pooled(row, role)),
            devicePrivateKey,
            state: state.stateString,
            stateHash: state.stateHash,
          });
        }
      }
    });
    writeSessionPool(config.dataDir, pool);
  } finally {
    await database.close();
  }
}
