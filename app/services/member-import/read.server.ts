import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parse, type CsvError } from "csv-parse";
import { invalid } from "~/domain/errors";
import { giveWay } from "~/lib/give-way.server";
import { IMPORT_MAX_BYTES, IMPORT_TOO_LARGE } from "~/domain/member-import";

/**
 * Reading a members CSV (decision 038). The upload is written to a file of its own as it
 * arrives, counted against the limit and checked for its encoding on the way; the file is then
 * read one record at a time by csv-parse, so neither the upload nor the reading holds the file
 * in memory.
 */

export type Encoding = "utf-8" | "windows-1252";

export type Upload = {
  path: string;
  fileName: string;
  bytes: number;
  /** UTF-8 when every byte sequence is; otherwise Windows-1252 (Latin-1 as spreadsheets write it). */
  encoding: Encoding;
};

export const NOT_CSV = "This is not a CSV file: save the spreadsheet as CSV (comma-separated values) and send that.";
const SPREADSHEET = "This is a spreadsheet file (Excel or OpenDocument), not CSV: save it as CSV and send that.";

const uploadsDirectory = () => path.join(os.tmpdir(), "memberhall-imports");

/** Why the first bytes of a file say it is no text, or null. */
function binaryProblem(first: Uint8Array): string | null {
  if (first[0] === 0x50 && first[1] === 0x4b && first[2] === 0x03 && first[3] === 0x04) return SPREADSHEET;
  if (first[0] === 0xd0 && first[1] === 0xcf && first[2] === 0x11 && first[3] === 0xe0) return SPREADSHEET;
  return null;
}

/**
 * Writes an uploaded file's bytes to a file of its own, refusing one past the limit, one that
 * is not text, and one with no bytes. The caller removes it with `discardUpload`.
 */
export async function saveUpload(fileName: string, data: AsyncIterable<Uint8Array>): Promise<Upload> {
  await mkdir(uploadsDirectory(), { recursive: true });
  const file = path.join(uploadsDirectory(), `${randomUUID()}.csv`);
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  let encoding: Encoding = "utf-8";
  let bytes = 0;
  const checked = async function* () {
    for await (const chunk of data) {
      if (bytes === 0) {
        const problem = binaryProblem(chunk);
        if (problem) throw invalid(problem, { file: [problem] });
      }
      bytes += chunk.length;
      if (bytes > IMPORT_MAX_BYTES) throw invalid(IMPORT_TOO_LARGE, { file: [IMPORT_TOO_LARGE] });
      if (chunk.includes(0)) throw invalid(NOT_CSV, { file: [NOT_CSV] });
      if (encoding === "utf-8") {
        try {
          utf8.decode(chunk, { stream: true });
        } catch {
          encoding = "windows-1252";
        }
      }
      yield chunk;
    }
  };
  try {
    await pipeline(checked(), createWriteStream(file));
    if (encoding === "utf-8") {
      try {
        utf8.decode();
      } catch {
        encoding = "windows-1252";
      }
    }
    if (bytes === 0) throw invalid("The file is empty.", { file: ["The file is empty."] });
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
  return { path: file, fileName: fileName.slice(0, 200), bytes, encoding };
}

export async function discardUpload(upload: Upload | null): Promise<void> {
  if (upload) await rm(upload.path, { force: true });
}

/** Decodes a single-byte encoding chunk by chunk (each byte is one character, so no chunk splits one). */
function decoder(encoding: Encoding): Transform {
  const text = new TextDecoder(encoding);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      done(null, text.decode(chunk, { stream: true }));
    },
    flush(done) {
      done(null, text.decode());
    },
  });
}

/** The most one record may hold: a file with a longer one is no members list. */
const MAX_RECORD_CHARACTERS = 1024 * 1024;

/**
 * How much of the file is read at a time. csv-parse parses what it is given in one go, and a
 * file of one-character rows makes a record, and an error object for its short row, every two
 * bytes: 4 KiB is some 2,000 such records, a few tens of milliseconds.
 */
const READ_CHUNK_BYTES = 4 * 1024;

/** Records read between two turns of the event loop. */
const RECORDS_PER_TURN = 250;

/** A record of the file with its row (the header is row 1, as a spreadsheet counts them). */
export type CsvRecord = { row: number; cells: string[] };

/** Why csv-parse could not read the file, in words, with the row it stopped at. */
function readProblem(error: CsvError | Error, row: number): string {
  const code = "code" in error ? error.code : "";
  const what =
    code === "CSV_QUOTE_NOT_CLOSED"
      ? "a quoted cell is never closed"
      : code === "CSV_INVALID_CLOSING_QUOTE" || code === "INVALID_OPENING_QUOTE"
        ? "a quote sits in the middle of a cell"
        : code === "CSV_MAX_RECORD_SIZE"
          ? "a row is far too long"
          : "it does not read as comma-separated values";
  return `The file cannot be read as CSV: ${what} (near row ${row}). Nothing was imported.`;
}

/**
 * The file's records, one at a time, cells as text (none is run as a formula or read as a
 * number). Separators: commas, or semicolons or tabs when the header line has those instead.
 */
export async function* readCsv(upload: Upload): AsyncGenerator<CsvRecord> {
  const delimiter = await sniffDelimiter(upload);
  const parser = parse({
    bom: true,
    delimiter,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
    max_record_size: MAX_RECORD_CHARACTERS,
  });
  const source = createReadStream(upload.path, { highWaterMark: READ_CHUNK_BYTES });
  const reading = upload.encoding === "utf-8" ? source.setEncoding("utf8") : source.pipe(decoder(upload.encoding));
  reading.pipe(parser);
  source.on("error", (error) => parser.destroy(error));
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      row += 1;
      if (row % RECORDS_PER_TURN === 0) await giveWay();
      yield { row, cells: record };
    }
  } catch (error) {
    const problem = readProblem(error as Error, row + 1);
    throw invalid(problem, { file: [problem] });
  } finally {
    source.destroy();
  }
}

/** The separator of the header line: the one of comma, semicolon and tab it holds most of. */
async function sniffDelimiter(upload: Upload): Promise<string> {
  const stream = createReadStream(upload.path, { start: 0, end: 64 * 1024 - 1, encoding: "latin1" });
  let head = "";
  for await (const chunk of stream) head += chunk;
  const first = head.split(/\r?\n/)[0] ?? "";
  const counts = [",", ";", "\t"].map((d) => [d, first.split(d).length - 1] as const);
  const [best] = [...counts].sort((a, b) => b[1] - a[1]);
  return best && best[1] > 0 ? best[0] : ",";
}
