import { readdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isDomainError } from "~/domain/errors";
import { IMPORT_MAX_BYTES, IMPORT_TOO_LARGE, mapColumns } from "~/domain/member-import";
import { discardUpload, NOT_CSV, readCsv, saveUpload, type Upload } from "./read.server";

/** The bytes as an upload arrives: in chunks of `size`. */
async function* chunks(bytes: Uint8Array, size = 7) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

const saved: Upload[] = [];
async function upload(bytes: Uint8Array | string, size?: number): Promise<Upload> {
  const data = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
  const made = await saveUpload("members.csv", chunks(data, size));
  saved.push(made);
  return made;
}
afterEach(async () => {
  for (const made of saved.splice(0)) await discardUpload(made);
});

async function records(made: Upload): Promise<string[][]> {
  const out: string[][] = [];
  for await (const record of readCsv(made)) out.push(record.cells);
  return out;
}

async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (isDomainError(error)) return error.message;
    throw error;
  }
  throw new Error("not refused");
}

describe("reading a members CSV", () => {
  it("reads Ghost's members export header as it is", async () => {
    const ghost =
      "id,email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels,tiers\n" +
      '5f1,ada@example.org,Ada Lovelace,,true,false,,2023-04-01T10:20:30.000Z,,"VIP, Founders",\n';
    const [header, row] = await records(await upload(ghost));
    const fields = mapColumns(header!).map((c) => c.field);
    expect(fields).toEqual([
      null,
      "email",
      "name",
      null,
      "newsletter",
      "plan",
      null,
      "createdAt",
      null,
      "labels",
      "tiers",
    ]);
    expect(row).toEqual([
      "5f1",
      "ada@example.org",
      "Ada Lovelace",
      "",
      "true",
      "false",
      "",
      "2023-04-01T10:20:30.000Z",
      "",
      "VIP, Founders",
      "",
    ]);
  });

  it("reads a plain spreadsheet's header, with semicolons as a European spreadsheet writes them", async () => {
    const [header, row] = await records(
      await upload("E-mail Address;First Name;Last Name;Group\r\nbo@example.org;Bo;Ek;Board\r\n"),
    );
    expect(mapColumns(header!).map((c) => c.field)).toEqual(["email", "firstName", "lastName", "labels"]);
    expect(row).toEqual(["bo@example.org", "Bo", "Ek", "Board"]);
  });

  it("drops a UTF-8 byte order mark, so the first column keeps its name", async () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("email,name\nzoë@example.org,Zoë\n")]);
    const made = await upload(bom, 2);
    expect(made.encoding).toBe("utf-8");
    expect(await records(made)).toEqual([
      ["email", "name"],
      ["zoë@example.org", "Zoë"],
    ]);
  });

  it("reads a Latin-1 file (as older spreadsheets save CSV) as Latin-1", async () => {
    // "José Müller" in ISO-8859-1 / Windows-1252: é = E9, ü = FC, and € = 80.
    const latin = new Uint8Array([
      ...new TextEncoder().encode("email,name,labels\njose@example.org,Jos"),
      0xe9,
      ...new TextEncoder().encode(" M"),
      0xfc,
      ...new TextEncoder().encode("ller,"),
      0x80,
      0x0a,
    ]);
    const made = await upload(latin, 5);
    expect(made.encoding).toBe("windows-1252");
    expect((await records(made))[1]).toEqual(["jose@example.org", "José Müller", "€"]);
  });

  it("keeps a UTF-8 character split across the upload's chunks whole", async () => {
    const made = await upload("email,name\nx@example.org,Łukasz Żółć\n", 1);
    expect(made.encoding).toBe("utf-8");
    expect((await records(made))[1]).toEqual(["x@example.org", "Łukasz Żółć"]);
  });

  it("reads quotes, commas and line breaks inside cells, and counts rows as a spreadsheet does", async () => {
    const text = 'email,name\n"a@example.org","Smith, ""Jo""\nthe second"\nb@example.org,Bee\n';
    const rows: { row: number; cells: string[] }[] = [];
    for await (const record of readCsv(await upload(text))) rows.push(record);
    expect(rows).toEqual([
      { row: 1, cells: ["email", "name"] },
      { row: 2, cells: ["a@example.org", 'Smith, "Jo"\nthe second'] },
      { row: 3, cells: ["b@example.org", "Bee"] },
    ]);
  });

  it("keeps formula-looking cells as the text they are", async () => {
    const text = 'email,name\nf@example.org,"=HYPERLINK(""http://evil.example"",""x"")"\ng@example.org,+1+2\n';
    const [, first, second] = await records(await upload(text));
    expect(first![1]).toBe('=HYPERLINK("http://evil.example","x")');
    expect(second![1]).toBe("+1+2");
  });

  it("refuses a spreadsheet file, a binary file, an empty one, and one past the limit, leaving no file behind", async () => {
    const files = () => readdir(path.join(os.tmpdir(), "memberhall-imports")).catch(() => []);
    const before = (await files()).length;
    const xlsx = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]);
    expect(await refusal(() => upload(xlsx))).toMatch(/spreadsheet file .* save it as CSV/);
    expect(await refusal(() => upload(new Uint8Array([0x65, 0x6d, 0, 0x61])))).toBe(NOT_CSV);
    expect(await refusal(() => upload(""))).toBe("The file is empty.");
    async function* big() {
      const block = new Uint8Array(1024 * 1024).fill(0x61);
      for (let sent = 0; sent <= IMPORT_MAX_BYTES; sent += block.length) yield block;
    }
    expect(await refusal(() => saveUpload("big.csv", big()))).toBe(IMPORT_TOO_LARGE);
    expect(IMPORT_TOO_LARGE).toContain("50 MB");
    expect((await files()).length).toBe(before);
  });

  it("says where a file stops reading as CSV", async () => {
    const made = await upload('email,name\na@example.org,ok\nb@example.org,"never closed\n');
    expect(await refusal(() => records(made))).toMatch(
      /cannot be read as CSV: a quoted cell is never closed \(near row 3\)/,
    );
  });
});
