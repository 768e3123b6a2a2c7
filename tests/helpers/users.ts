import { secp256k1 } from "@noble/curves/secp256k1";
import { bytesToHex } from "@noble/hashes/utils";
import type { Database } from "~/db/client.server";
import { users } from "~/db/schema";
import { hashPassword } from "~/lib/password.server";
import { startSession } from "~/services/session.server";

let counter = 0;
let cachedHash: Promise<string> | undefined;
export const TEST_PASSWORD = "correct horse battery";

/** A member row, set up and verified unless told otherwise. */
export async function createUser(db: Database, overrides: Partial<typeof users.$inferInsert> = {}) {
  counter += 1;
  cachedHash ??= hashPassword(TEST_PASSWORD);
  const username = overrides.username ?? `user${counter}_${Date.now().toString(36)}`;
  const [row] = await db
    .insert(users)
    .values({
      username,
      email: `${username}@example.org`,
      passwordHash: await cachedHash,
      emailVerifiedAt: new Date(),
      needsSetup: false,
      countryCode: null,
      ...overrides,
    })
    .returning();
  return row!;
}

export function newDeviceKey() {
  const privateKey = bytesToHex(secp256k1.utils.randomPrivateKey());
  const publicKey = bytesToHex(secp256k1.getPublicKey(privateKey, true));
  return { privateKey, publicKey };
}

export async function createSession(
  db: Database,
  userId: string,
  devicePublicKey: string | null = null,
  carrier: "cookie" | "state" = "cookie",
) {
  return startSession(db, { userId, carrier, devicePublicKey, ip: "203.0.113.7", userAgent: "test" });
}
