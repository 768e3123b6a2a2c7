import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { beforeEach, describe, expect, it } from "vitest";
import { localBackupStore } from "./local.server";
import type { BackupStore } from "./types";

let dir: string;
let store: BackupStore;

beforeEach(() => {
  dir = path.join(mkdtempSync(path.join(os.tmpdir(), "memberhall-store-")), "backups");
  store = localBackupStore(dir);
});

const KEY = "memberhall-20261207T031700Z-daily.tar.gz";

async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

const chunks = (count: number) => Array.from({ length: count }, (_, i) => Buffer.alloc(64 * 1024, i));

describe("local backup store (BACKUP_DIR)", () => {
  it("writes a streamed file into its folder, made if missing, under the key as its name", async () => {
    const stored = await store.put(KEY, Readable.from(chunks(20)));

    expect(stored).toMatchObject({ key: KEY, bytes: 20 * 64 * 1024 });
    expect(readdirSync(dir)).toEqual([KEY]);
    expect(readFileSync(path.join(dir, KEY)).equals(Buffer.concat(chunks(20)))).toBe(true);
  });

  it("gives the file back as a stream with the same bytes", async () => {
    await store.put(KEY, Readable.from(chunks(7)));

    const body = await store.get(KEY);

    expect(await sha256Of(body!)).toBe(
      createHash("sha256")
        .update(Buffer.concat(chunks(7)))
        .digest("hex"),
    );
  });

  it("lists backup files only: not a partial one being written, nor another file", async () => {
    await store.put(KEY, Readable.from(chunks(1)));
    writeFileSync(path.join(dir, `.${KEY}.partial`), "half");
    writeFileSync(path.join(dir, "notes (old).txt"), "x");

    const listed = await store.list();

    expect(listed).toEqual([{ key: KEY, bytes: 64 * 1024, modifiedAt: expect.any(Date) }]);
  });

  it("lists nothing before its folder exists", async () => {
    expect(await store.list()).toEqual([]);
  });

  it("heads and deletes a file; a missing one reads as null and deletes quietly", async () => {
    await store.put(KEY, Readable.from(chunks(1)));
    expect(await store.head(KEY)).toMatchObject({ key: KEY, bytes: 64 * 1024 });

    await store.delete(KEY);

    expect(await store.head(KEY)).toBeNull();
    expect(await store.get(KEY)).toBeNull();
    await expect(store.delete(KEY)).resolves.toBeUndefined();
  });

  it("leaves neither the file nor its partial one when the stream fails midway", async () => {
    const failing = Readable.from(
      (async function* () {
        yield Buffer.alloc(1024);
        throw new Error("pg_dump stopped");
      })(),
    );

    await expect(store.put(KEY, failing)).rejects.toThrow("pg_dump stopped");

    expect(readdirSync(dir)).toEqual([]);
  });

  it("refuses a key that would reach outside its folder", async () => {
    await expect(store.put("../escape.dump", Readable.from([Buffer.from("x")]))).rejects.toThrow(
      /Not a backup file name/,
    );
    await expect(store.get(".hidden")).rejects.toThrow(/Not a backup file name/);
  });
});
