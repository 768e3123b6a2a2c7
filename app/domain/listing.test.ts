import { describe, expect, it } from "vitest";
import { csvCell, csvLine, decodeCursor, encodeCursor, listSearch, readListQuery, type ListColumn } from "./listing";

const columns: ListColumn[] = [
  { key: "name", label: "Name", kind: "text", sortable: true, filter: { kind: "contains" } },
  { key: "status", label: "Status", kind: "text", filter: { kind: "equals", options: ["A", "B"] } },
  { key: "joined", label: "Joined", kind: "date", sortable: true, filter: { kind: "range" } },
  { key: "admin", label: "Admin", kind: "boolean", filter: { kind: "boolean" } },
];
const read = (search: string) => readListQuery(new URLSearchParams(search), columns, { sort: "joined", dir: "desc" });

describe("a list's query from the URL", () => {
  it("reads the sort, the direction, each filter and a cursor", () => {
    const cursor = encodeCursor({ v: "2026-01-01 00:00:00.123456+00", id: "0b6f" });
    const { query, errors } = read(
      `name=ann&status=B&joined_from=2026-01-01&admin=yes&sort=name&dir=asc&after=${cursor}`,
    );
    expect(errors).toEqual({});
    expect(query).toEqual({
      sort: "name",
      dir: "asc",
      after: { v: "2026-01-01 00:00:00.123456+00", id: "0b6f" },
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

  it("writes a view back as a query string, without its page", () => {
    const { query } = read("name=ann&joined_from=2026-01-01&joined_to=2026-01-31&sort=name&dir=asc&after=abc");
    expect(listSearch(query)).toBe("name=ann&joined_from=2026-01-01&joined_to=2026-01-31&sort=name&dir=asc");
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
