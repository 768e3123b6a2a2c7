import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync, rmSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { AGE_HEADER, isAgeFile } from "~/domain/backups";
import { decryptToFile } from "./encryption.server";
import { megabytes, missingIdentity, RestoreRefused, type Located } from "./restore-source.server";
import type { KeptFile } from "./restore-settle.server";

/**
 * A backup made readable for pg_restore or PGlite: downloaded from the store and decrypted as
 * it comes, into a temporary file. The bytes as kept are counted and hashed on the way, for the
 * backup's row; no backup is ever whole in memory.
 */

/** How often a long download or decryption says how far it is. */
const PROGRESS_EVERY_MS = 5_000;

export type PrivateFolder = { dir: string; dispose(): Promise<void> };

/**
 * A new folder only this user can read (0700), in DATA_DIR when it exists (the disk meant for
 * the database, where a file of many gigabytes fits; the system's temporary folder may be in
 * memory), else in the system's temporary folder. Removed by `dispose`, or when the process ends
 * before that (the restore task turns Ctrl-C into an exit).
 */
export async function privateFolder(near: string): Promise<PrivateFolder> {
  const parent = existsSync(near) ? near : os.tmpdir();
  const dir = await mkdtemp(path.join(parent, ".memberhall-restore-"));
  await chmod(dir, 0o700);
  const removeNow = () => rmSync(dir, { recursive: true, force: true });
  process.once("exit", removeNow);
  return {
    dir,
    async dispose() {
      process.removeListener("exit", removeNow);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

type Watched = {
  stream: Transform;
  /** The first bytes, once they passed: enough for age's header. */
  head: Promise<Buffer>;
  /** Why the source failed, when it did: a download cut short is no wrong key. */
  failure(): Error | null;
  digest(): { bytes: number; sha256: string };
};

/** The source's bytes passed on unchanged, counted, hashed and reported every few seconds. */
function watched(source: Readable, progress: (bytes: number) => void): Watched {
  const hash = createHash("sha256");
  let bytes = 0;
  let head = Buffer.alloc(0);
  let told = Date.now();
  let failed: Error | null = null;
  let headOut: (head: Buffer) => void = () => {};
  let headFailed: (error: Error) => void = () => {};
  const headReady = new Promise<Buffer>((resolve, reject) => {
    headOut = resolve;
    headFailed = reject;
  });
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      if (head.length < AGE_HEADER.length) {
        head = Buffer.concat([head, chunk]);
        if (head.length >= AGE_HEADER.length) headOut(head);
      }
      if (Date.now() - told >= PROGRESS_EVERY_MS) {
        told = Date.now();
        progress(bytes);
      }
      done(null, chunk);
    },
    flush(done) {
      headOut(head);
      done();
    },
  });
  source.once("error", (error: Error) => {
    failed = error;
    headFailed(error);
    stream.destroy(error);
  });
  stream.once("error", (error: Error) => headFailed(error));
  // A source given up on (a refused key) stops its download.
  stream.once("close", () => source.destroy());
  source.pipe(stream);
  return {
    stream,
    head: headReady,
    failure: () => failed,
    digest: () => ({ bytes, sha256: hash.digest("hex") }),
  };
}

export type PlainCopy = { file: string; kept: KeptFile };

/**
 * Writes the backup as pg_dump or PGlite made it into `folder`: decrypted with `identity` when
 * it is encrypted (found by age's header, whatever its name), as it is otherwise. A key that is
 * not the file's recipient is refused before anything is written.
 */
export async function plainCopy(
  located: Located,
  identity: string | null,
  folder: string,
  log: (message: string) => void,
): Promise<PlainCopy> {
  const { name } = located;
  const target = path.join(folder, name.replace(/\.age$/, ""));
  const source = located.from === "file" ? createReadStream(located.file) : await located.store.get(name);
  if (!source) throw new RestoreRefused(`${name} is no longer in the store`);
  const size = megabytes(located.bytes);
  const verb = located.from === "store" ? "downloaded" : "read";
  if (located.from === "store") log(`downloading ${name} (${size}) from the store`);
  const watch = watched(source, (bytes) => log(`${verb} ${megabytes(bytes)} of ${size}`));
  const encrypted = isAgeFile(await watch.head);
  if (encrypted && !identity) {
    watch.stream.destroy();
    throw missingIdentity(name);
  }
  if (encrypted) {
    log(`decrypting ${name} into ${folder}${located.from === "store" ? " as it downloads" : ""}`);
    try {
      await decryptToFile(watch.stream, target, identity!);
    } catch (error) {
      const failure = watch.failure();
      if (failure) throw failure;
      // Refused at the header, before a byte was written: the key is not this backup's.
      if (!existsSync(target)) throw new RestoreRefused((error as Error).message);
      throw error;
    }
  } else {
    await pipeline(watch.stream, createWriteStream(target, { mode: 0o600 }));
  }
  const { bytes, sha256 } = watch.digest();
  if (bytes !== located.bytes)
    throw new Error(`${name} was read ${bytes} bytes long, not the ${located.bytes} bytes it has: try again`);
  const storedAt = located.from === "store" ? located.storedAt : null;
  return { file: target, kept: { fileName: name, bytes, sha256, encrypted, storedAt } };
}
