import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { checkKey, isBackupKey, type BackupStore, type StoredObject } from "./types";

/**
 * The built-in store: the files in BACKUP_DIR on this server. A file is written under a hidden
 * temporary name and renamed once whole, so a listing never shows half a backup.
 */
export function localBackupStore(dir: string): BackupStore {
  const root = path.resolve(dir);
  const fileOf = (key: string) => path.join(root, checkKey(key));

  async function described(key: string): Promise<StoredObject | null> {
    try {
      const facts = await stat(fileOf(key));
      return facts.isFile() ? { key, bytes: facts.size, modifiedAt: facts.mtime } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  return {
    name: "local",
    location: root,

    async put(key, body, options = {}) {
      const file = fileOf(key);
      const partial = path.join(root, `.${key}.partial`);
      await mkdir(root, { recursive: true });
      try {
        await pipeline(body, createWriteStream(partial), { signal: options.signal });
        await rename(partial, file);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return (await described(key))!;
    },

    async list() {
      let names: string[];
      try {
        names = await readdir(root);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
        throw error;
      }
      const found = await Promise.all(names.filter(isBackupKey).map(described));
      return found.filter((object): object is StoredObject => object !== null);
    },

    async get(key) {
      if (!(await described(key))) return null;
      return createReadStream(fileOf(key)) as Readable;
    },

    head: described,

    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
  };
}
