import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Sessions made in the test database before the server starts (the embedded database has
 * one process at a time), handed out one per use so that no two tests share a session.
 * This module reads and claims them; tests/e2e/prepare-database.ts makes them.
 */

/** The demo members, by username (app/db/seed.server.ts). */
export const ROLES = ["admin", "creator", "tester", "member", "newbie"] as const;
export type Role = (typeof ROLES)[number];

export type PooledSession = {
  id: string;
  username: string;
  /** The session cookie as the server signs it. */
  cookie: { name: string; value: string; expires: number };
  /** When the server last checked the login: the start of its freshness (spec §4). */
  loginCheckedAt: string;
};

/** A session carried by state headers, as the frame client keeps it (app/lib/state-client.ts). */
export type PooledFrameSession = PooledSession & {
  devicePrivateKey: string;
  state: string;
  stateHash: string;
};

export type SessionPool = {
  cookie: Record<Role, PooledSession[]>;
  frame: Record<Role, PooledFrameSession[]>;
};

const poolFile = (dataDir: string) => path.join(dataDir, "e2e-session-pool.json");
const claimsDir = (dataDir: string) => path.join(dataDir, "e2e-session-claims");

export function writeSessionPool(dataDir: string, pool: SessionPool): void {
  mkdirSync(claimsDir(dataDir), { recursive: true });
  writeFileSync(poolFile(dataDir), JSON.stringify(pool), { mode: 0o600 });
}

let cached: { dataDir: string; pool: SessionPool } | undefined;

function readSessionPool(dataDir: string): SessionPool {
  if (cached?.dataDir !== dataDir) {
    cached = { dataDir, pool: JSON.parse(readFileSync(poolFile(dataDir), "utf8")) as SessionPool };
  }
  return cached.pool;
}

/** Tells whether this process is the first to take the session (an exclusive create). */
function take(dataDir: string, id: string): boolean {
  try {
    closeSync(openSync(path.join(claimsDir(dataDir), id), "wx"));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/** An unused session of the role; each one is given once across all workers. */
export function claimSession<K extends keyof SessionPool>(
  dataDir: string,
  kind: K,
  role: Role,
): SessionPool[K][Role][number] {
  const entries = readSessionPool(dataDir)[kind][role];
  for (const entry of entries) {
    if (take(dataDir, entry.id)) return entry;
  }
  throw new Error(
    `All ${entries.length} prepared ${kind} sessions of ${role} are used: ` +
      `raise E2E_SESSIONS_PER_ROLE (tests/e2e/prepare-database.ts)`,
  );
}
