import { open, type FileHandle } from "node:fs/promises";
import { promisify } from "node:util";
import { crc32, deflateRaw } from "node:zlib";

/**
 * A ZIP archive written to a file one entry at a time (PKWARE APPNOTE 6.3, without ZIP64):
 * each entry's bytes are compressed on zlib's thread pool and written at once, so neither the
 * whole archive nor a long compression ever sits on the event loop. Names are UTF-8 (flag 11).
 */

const deflate = promisify(deflateRaw);

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const VERSION = 20;
const UTF8_NAMES = 1 << 11;
const STORED = 0;
const DEFLATED = 8;
/** The ZIP format's own limits without ZIP64: 65,535 entries, 4 GiB per entry and in all. */
const MAX_ENTRIES = 0xffff;
const MAX_BYTES = 0xffffffff;

type CentralEntry = {
  name: Buffer;
  method: number;
  time: number;
  date: number;
  crc: number;
  compressedSize: number;
  size: number;
  offset: number;
};

/**
 * The fields a local header and its central directory entry share, from the version needed to
 * extract to the name's length; the extra field's length after them stays 0.
 */
function writeEntryFields(header: Buffer, at: number, entry: CentralEntry): void {
  header.writeUInt16LE(VERSION, at);
  header.writeUInt16LE(UTF8_NAMES, at + 2);
  header.writeUInt16LE(entry.method, at + 4);
  header.writeUInt16LE(entry.time, at + 6);
  header.writeUInt16LE(entry.date, at + 8);
  header.writeUInt32LE(entry.crc, at + 10);
  header.writeUInt32LE(entry.compressedSize, at + 14);
  header.writeUInt32LE(entry.size, at + 18);
  header.writeUInt16LE(entry.name.byteLength, at + 22);
}

/** MS-DOS time and date, as ZIP stores them (in UTC here, two-second steps, 1980 onwards). */
function dosDateTime(at: Date): { time: number; date: number } {
  const year = Math.max(at.getUTCFullYear(), 1980);
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | (at.getUTCSeconds() >> 1),
    date: ((year - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

/** A relative path of plain segments: no leading slash, no backslash, no "." or ".." segment. */
export function isSafeEntryName(name: string): boolean {
  if (!name || name.length > 1000 || name.startsWith("/") || name.includes("\\") || name.includes("\0")) return false;
  return name.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..");
}

export type ZipWriter = {
  /** Adds a file; its bytes are deflated unless that would make them larger. */
  add(name: string, content: Uint8Array | string, modified?: Date): Promise<void>;
  /** Writes the central directory and closes the file; resolves with the archive's size. */
  close(): Promise<number>;
  /** Closes the file without finishing it (the caller removes it). */
  abort(): Promise<void>;
};

export async function createZip(file: string): Promise<ZipWriter> {
  const handle: FileHandle = await open(file, "wx", 0o600);
  const entries: CentralEntry[] = [];
  const names = new Set<string>();
  let offset = 0;
  let closed = false;

  const write = async (bytes: Uint8Array) => {
    await handle.write(bytes);
    offset += bytes.byteLength;
  };

  return {
    async add(name, content, modified = new Date()) {
      if (closed) throw new Error("The archive is closed");
      if (!isSafeEntryName(name)) throw new Error(`Not a file name for an archive: ${JSON.stringify(name)}`);
      if (names.has(name)) throw new Error(`The archive has ${name} already`);
      if (entries.length >= MAX_ENTRIES) throw new Error("An archive holds at most 65,535 files");
      const data = typeof content === "string" ? Buffer.from(content, "utf8") : content;
      const deflated = await deflate(data);
      const method = deflated.byteLength < data.byteLength ? DEFLATED : STORED;
      const body = method === DEFLATED ? deflated : data;
      if (data.byteLength > MAX_BYTES || offset + body.byteLength > MAX_BYTES)
        throw new Error("An archive holds at most 4 GiB");
      const nameBytes = Buffer.from(name, "utf8");
      const entry: CentralEntry = {
        name: nameBytes,
        method,
        ...dosDateTime(modified),
        crc: crc32(data),
        compressedSize: body.byteLength,
        size: data.byteLength,
        offset,
      };
      const header = Buffer.alloc(30);
      header.writeUInt32LE(LOCAL_HEADER, 0);
      writeEntryFields(header, 4, entry);
      await write(Buffer.concat([header, nameBytes]));
      await write(body);
      entries.push(entry);
      names.add(name);
    },

    async close() {
      if (closed) throw new Error("The archive is closed");
      closed = true;
      try {
        const start = offset;
        for (const entry of entries) {
          const header = Buffer.alloc(46);
          header.writeUInt32LE(CENTRAL_HEADER, 0);
          // Made on Unix (3), so that the external attributes below are read as its file mode.
          header.writeUInt16LE((3 << 8) | VERSION, 4);
          writeEntryFields(header, 6, entry);
          // Extra field, comment, disk number start, internal attributes: none.
          header.writeUInt32LE((0o100644 << 16) >>> 0, 38);
          header.writeUInt32LE(entry.offset, 42);
          await write(Buffer.concat([header, entry.name]));
        }
        const end = Buffer.alloc(22);
        end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
        end.writeUInt16LE(entries.length, 8);
        end.writeUInt16LE(entries.length, 10);
        end.writeUInt32LE(offset - start, 12);
        end.writeUInt32LE(start, 16);
        await write(end);
        await handle.sync();
        return offset;
      } finally {
        await handle.close();
      }
    },

    async abort() {
      if (closed) return;
      closed = true;
      await handle.close();
    },
  };
}
