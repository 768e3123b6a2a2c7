import { createReadStream, createWriteStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { Decrypter, Encrypter } from "age-encryption";

/**
 * Backups encrypted with age (decision 064) to the operator's public key: the server holds the
 * recipient only, so neither the store nor anyone who reads BACKUP_DIR can read a backup. Files
 * go through as streams of age's 64 KiB chunks: a dump of any size never sits whole in memory.
 */

const toWeb = (stream: Readable) => Readable.toWeb(stream) as unknown as ReadableStream<Uint8Array>;
const fromWeb = (stream: ReadableStream<Uint8Array>) => Readable.fromWeb(stream as unknown as WebReadableStream);

/** Writes `source` encrypted to `recipient` (an age1… public key) into `target`. */
export async function encryptFile(source: string, target: string, recipient: string, signal?: AbortSignal) {
  const encrypter = new Encrypter();
  encrypter.addRecipient(recipient);
  const encrypted = await encrypter.encrypt(toWeb(createReadStream(source)));
  await pipeline(fromWeb(encrypted), createWriteStream(target), { signal });
}

/** An age private key as age-keygen writes it: AGE-SECRET-KEY-1 and 58 more letters and digits. */
const IDENTITY = /^AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}$/;

/** Why an identity cannot be used, or null. */
export function identityProblem(identity: string): string | null {
  return IDENTITY.test(identity) ? null : "is not an age private key (AGE-SECRET-KEY-1…, as age-keygen writes it)";
}

/**
 * The private key of a restore: BACKUP_IDENTITY itself, or the first key line of the file
 * BACKUP_IDENTITY_FILE names (age-keygen's file, whose other lines are comments).
 */
export async function identityFrom(env: Record<string, string | undefined>): Promise<string | null> {
  const given = env.BACKUP_IDENTITY?.trim();
  if (given) {
    const problem = identityProblem(given);
    if (problem) throw new Error(`BACKUP_IDENTITY ${problem}`);
    return given;
  }
  const file = env.BACKUP_IDENTITY_FILE?.trim();
  if (!file) return null;
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new Error(`BACKUP_IDENTITY_FILE (${file}) cannot be read: ${error.code ?? error.message}`);
  });
  const key = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .find((line) => line && !line.startsWith("#"));
  if (!key || identityProblem(key)) throw new Error(`BACKUP_IDENTITY_FILE (${file}) holds no age private key`);
  return key;
}

/**
 * Decrypts an age stream into `target`. A key that is not the file's recipient is refused before
 * anything is written; a file changed after it was made fails at the chunk that was changed.
 */
export async function decryptToFile(source: Readable, target: string, identity: string, signal?: AbortSignal) {
  const decrypter = new Decrypter();
  decrypter.addIdentity(identity);
  let decrypted: ReadableStream<Uint8Array>;
  try {
    decrypted = await decrypter.decrypt(toWeb(source));
  } catch (error) {
    source.destroy();
    throw new Error(`The backup cannot be decrypted with this key: ${(error as Error).message}`);
  }
  await pipeline(fromWeb(decrypted), createWriteStream(target), { signal });
}
