import { describe, expect, it } from "vitest";
import {
  csvCell,
  csvLine,
  decodeCursor,
  encodeCursor,
  fitCursor,
  listSearch,
  readListQuery,
  sqlText,
  type ListColumn,
  type SqlType,
} from "./listing";

const columns: ListColumn[] = [
  { key: "name", label: "Name", kind: "text", sortable: true, filter: { kind: "contains" } },
  { key: "status", label: "Status", kind: "text", filter: { kind: "equals", options: ["A", "B"] } },
  { key: "joined", label: "Joined", kind: "date", sortable: true, filter: { kind: "range" } },
  { key: "admin", label: "Admin", kind: "boolean", filter: { kind: "boolean" } },
];
const read = (search: string) =>
  readListQuery(new URLSearchParams(search), columns, { sort: "joined", dir: "desc" }, "uuid");
const ID = "0b6f4c2e-1d3a-4e5f-8a9b-0c1d2e3f4a5b";

describe("a list's query from the URL", () => {
  it("reads the sort, the direction, each filter and a cursor", () => {
    const cursor = encodeCursor({ v: "2026-01-01 00:00:00.123456+00", id: ID });
    const { query, errors } = read(
      `name=ann&status=B&joined_from=2026-01-01&admin=yes&sort=name&dir=asc&after=${cursor}`,
    );
    expect(errors).toEqual({});
    expect(query).toEqual({
      sort: "name",
      dir: "asc",
      after: { v: "2026-01-01 00:00:00.123456+00", id: ID },
      before: null,
      filters: { name: "ann", status: "B", joined: { from: "2026-01-01" }, admin: "yes" },
    });
  });

  it("leaves out what it cannot use and names it", () => {
    const { query, errors } = read("status=C&joined_from=2026-02-30&joined_to=x&admin=maybe&sort=secret&dir=up");
    expect(query).toMatchObject({ sort: "joined", dir: "desc", filters: {} });
    expect(errors).toEqual({
      status: 'Status: "C" is not one of the choices',
      joined_from: "Joined: enter a date as YYYY-MM-DD",
      joined_to: "Joined: enter a date as YYYY-MM-DD",
      admin: "Admin: choose yes or no",
      sort: 'A list cannot be sorted by "secret"',
    });
    expect(read("joined_from=2026-03-01&joined_to=2026-02-01").errors).toEqual({
      joined_to: "Joined: the end comes before the start",
    });
    expect(read("status=").query.filters).toEqual({});
    expect(read("name=a%00b").errors).toEqual({ name: "Name: leave out control characters" });
  });

  it("takes a cursor only when it reads as one", () => {
    expect(decodeCursor("nonsense")).toBeNull();
    expect(decodeCursor(encodeCursor({ v: "ü ∑", id: 7 }))).toEqual({ v: "ü ∑", id: 7 });
    expect(decodeCursor(btoa(JSON.stringify({ v: {}, id: 1 })))).toBeNull();
    expect(read("after=x").query.after).toBeNull();
  });

  it("takes a cursor only when its value fits the sort's column and its id the list's ids, else starts over and says so", () => {
    const gone = {
      after: "The page asked for is not a page of this list in this order: the list starts from its first page",
    };
    const after = (cursor: object) => read(`sort=joined&after=${encodeCursor(cursor as never)}`);
    // A cursor the database made reads back as it was.
    expect(after({ v: "2026-01-01 00:00:00.123456+00", id: ID })).toMatchObject({
      query: { after: { v: "2026-01-01 00:00:00.123456+00", id: ID } },
      errors: {},
    });
    for (const misfit of [
      { v: null, id: "x" },
      { v: "2026-01-01 00:00:00+00", id: "x" },
      { v: "2026-01-01 00:00:00+00", id: 7 },
      { v: "ann", id: ID },
      { v: 1e308, id: ID },
      { v: null, id: ID },
    ]) {
      expect(after(misfit), JSON.stringify(misfit)).toEqual({
        query: expect.objectContaining({ after: null, before: null }),
        errors: gone,
      });
    }
    // A date cursor under a text sort is some text: it fits, and pages from there.
    const underName = read(`sort=name&after=${encodeCursor({ v: "2026-01-01 00:00:00+00", id: ID })}`);
    expect(underName.query.after).toEqual({ v: "2026-01-01 00:00:00+00", id: ID });
    const before = read(`sort=joined&before=${encodeCursor({ v: "soon", id: ID })}`);
    expect(before.query.before).toBeNull();
    expect(before.errors).toEqual({
      before: "The page asked for is not a page of this list in this order: the list starts from its first page",
    });
    expect(read("after=x").errors).toEqual(gone);
  });

  it("writes a view back as a query string, without its page", () => {
    const { query } = read("name=ann&joined_from=2026-01-01&joined_to=2026-01-31&sort=name&dir=asc&after=abc");
    expect(listSearch(query)).toBe("name=ann&joined_from=2026-01-01&joined_to=2026-01-31&sort=name&dir=asc");
  });
});

describe("a cursor's parts as text of their SQL type", () => {
  const rows: [SqlType, unknown, string | null][] = [
    ["text", "ann", "ann"],
    ["text", "", ""],
    ["text", 7, "7"],
    ["text", "a\u0000b", null],
    ["text", null, null],
    ["uuid", "0B6F4C2E-1D3A-4E5F-8A9B-0C1D2E3F4A5B", "0B6F4C2E-1D3A-4E5F-8A9B-0C1D2E3F4A5B"],
    ["uuid", "x", null],
    ["uuid", "0b6f4c2e1d3a4e5f8a9b0c1d2e3f4a5b", null],
    ["uuid", 7, null],
    ["integer", "2147483647", "2147483647"],
    ["integer", -2147483648, "-2147483648"],
    ["integer", "2147483648", null],
    ["integer", "1.5", null],
    ["integer", "x", null],
    ["bigint", "9223372036854775807", "9223372036854775807"],
    ["bigint", "-9223372036854775808", "-9223372036854775808"],
    ["bigint", "9223372036854775808", null],
    ["bigint", "99999999999999999999999", null],
    ["bigint", 1e308, null],
    ["bigint", 42, "42"],
    ["bigint", "0x10", null],
    ["bigint", " 7", null],
    ["numeric", "12.50", "12.50"],
    ["numeric", "-Infinity", "-Infinity"],
    ["numeric", "NaN", "NaN"],
    ["numeric", 1.5, "1.5"],
    ["numeric", 1e308, null],
    ["numeric", "1e999999", null],
    ["numeric", "nan", null],
    ["numeric", "Infinityx", null],
    ["numeric", "", null],
    ["numeric", "abc", null],
    ["numeric", true, null],
    ["timestamptz", "2026-01-01 00:00:00+00", "2026-01-01 00:00:00+00"],
    ["timestamptz", "2024-02-29 23:59:59.999999+05:30", "2024-02-29 23:59:59.999999+05:30"],
    ["timestamptz", "1889-01-01 00:00:00-05:17:32", "1889-01-01 00:00:00-05:17:32"],
    ["timestamptz", "2026-01-01T10:00:00.000Z", "2026-01-01T10:00:00.000Z"],
    ["timestamptz", "-infinity", "-infinity"],
    ["timestamptz", "2026-02-30 00:00:00+00", null],
    ["timestamptz", "2025-02-29 00:00:00+00", null],
    ["timestamptz", "2026-01-01 24:00:00+00", null],
    ["timestamptz", "0000-01-01 00:00:00+00", null],
    ["timestamptz", "99999-01-01 00:00:00+00", null],
    ["timestamptz", "now", null],
    ["timestamptz", "ann", null],
    ["timestamptz", 1767225600000, null],
    ["date", "2026-01-31", "2026-01-31"],
    ["date", "infinity", "infinity"],
    ["date", "2026-13-01", null],
    ["date", "2026-01-01 00:00:00+00", null],
    ["boolean", "true", "true"],
    ["boolean", false, "false"],
    ["boolean", "yes", null],
    ["boolean", 1, null],
  ];

  it.each(rows)("%s: %j reads as %j", (type, value, text) => {
    expect(sqlText(value as never, type)).toBe(text);
  });

  it("fits a whole cursor, or none", () => {
    const types = { value: "timestamptz", id: "bigint" } as const;
    expect(fitCursor({ v: "2026-01-01 00:00:00+00", id: 12 }, types)).toEqual({
      v: "2026-01-01 00:00:00+00",
      id: "12",
    });
    expect(fitCursor({ v: "2026-01-01 00:00:00+00", id: "0b6f" }, types)).toBeNull();
    expect(fitCursor({ v: "ann", id: 12 }, types)).toBeNull();
  });
});

describe("CSV cells", () => {
  it("make text a spreadsheet would run as a formula harmless", () => {
    for (const text of ["=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1"])
      expect(csvCell(text).replace(/^"|"$/g, "")).toMatch(/^'/);
    expect(csvCell("a=1")).toBe("a=1");
    // Numbers are numbers, not formulas.
    expect(csvCell(-5)).toBe("-5");
  });

  it("quote commas, quotes, line breaks and edge spaces", () => {
    expect(csvCell('say "hi", then go')).toBe('"say ""hi"", then go"');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell(" padded")).toBe('" padded"');
    expect(csvCell(null)).toBe("");
    expect(csvCell(true)).toBe("true");
    expect(csvLine(["a", null, "=b"])).toBe("a,,'=b\r\n");
  });
});
