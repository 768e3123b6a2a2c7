import { describe, expect, it } from "vitest";
import {
  columnsProblem,
  importDate,
  looksLikeFormula,
  mapColumns,
  planLine,
  readLine,
  usernameCandidates,
  usernameFromEmail,
  type CatalogueFacts,
  type ExistingMember,
  type ImportedMember,
} from "./member-import";

const facts: CatalogueFacts = {
  countries: new Map([
    ["gb", "GB"],
    ["united kingdom", "GB"],
    ["au", "AU"],
  ]),
  plans: new Map([
    ["monthly", "supporter-monthly"],
    ["supporter-monthly", "supporter-monthly"],
    ["gold", "gold"],
  ]),
  defaultPlan: "supporter-monthly",
  today: "2026-11-27",
};

const columns = mapColumns([
  "Email",
  "Username",
  "Name",
  "Country",
  "Created",
  "Labels",
  "Complimentary plan",
  "Complimentary until",
  "Newsletter",
  "tiers",
]);
const read = (cells: string[]) => readLine(cells, columns, facts);
const member = (cells: string[]): ImportedMember => {
  const result = read(cells);
  if (!result.ok) throw new Error(result.reason);
  return result.member;
};

describe("the columns of a members import", () => {
  it("reads Mailchimp's export: its e-mail, names, country code, opt-in time and tags", () => {
    const map = mapColumns([
      "Email Address",
      "First Name",
      "Last Name",
      "MEMBER_RATING",
      "OPTIN_TIME",
      "OPTIN_IP",
      "CONFIRM_TIME",
      "CC",
      "REGION",
      "TAGS",
    ]);
    expect(map.map((c) => c.field)).toEqual([
      "email",
      "firstName",
      "lastName",
      null,
      "createdAt",
      null,
      null,
      "country",
      null,
      "labels",
    ]);
    const line = readLine(
      ["jons@example.se", "Jöns", "Jakob", "2", "2019-03-14 17:22:05", "", "", "AU", "", '"Volunteers","Board, 2021"'],
      map,
      facts,
    );
    expect(line).toMatchObject({
      ok: true,
      member: {
        name: "Jöns Jakob",
        country: "AU",
        createdAt: "2019-03-14T17:22:05.000Z",
        labels: ["Volunteers", "Board, 2021"],
        notes: [],
      },
    });
  });

  it("knows a header however it is written, reads each field once, and needs an email column", () => {
    const map = mapColumns(["E-mail", "email", "First name", "SURNAME", "joined_at", "what"]);
    expect(map.map((c) => c.field)).toEqual(["email", null, "firstName", "lastName", "createdAt", null]);
    expect(columnsProblem(map)).toBeNull();
    expect(columnsProblem(mapColumns(["name", "phone"]))).toBe(
      'The file has no email column (its columns are: name, phone). The first line must name the columns, one of them "email".',
    );
  });
});

describe("a line of a members import", () => {
  it("reads every field", () => {
    expect(
      member([
        " Ada@Example.org ",
        "ada",
        "Ada L",
        "united kingdom",
        "2020-05-01",
        "VIP; Board,VIP",
        "Monthly",
        "2027-01-31",
        "yes",
        "",
      ]),
    ).toEqual({
      email: "ada@example.org",
      username: "ada",
      name: "Ada L",
      country: "GB",
      createdAt: "2020-05-01",
      labels: ["VIP", "Board"],
      plan: "supporter-monthly",
      planEndsOn: "2027-01-31",
      newsletter: true,
      notes: [],
    });
  });

  it("skips a line without a valid e-mail or with a username that breaks the rule, saying why", () => {
    expect(read(["", "x"])).toEqual({ ok: false, email: "", reason: "No e-mail address" });
    expect(read(["not-an-email"])).toMatchObject({ ok: false, reason: "Not a valid e-mail address: not-an-email" });
    expect(read(["a@example.org", "A B"])).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^Username: 3 to 32/),
    });
  });

  it("leaves out what it cannot read, and notes it, rather than losing the member", () => {
    const m = member(["a@example.org", "", "=1+1", "Atlantis", "01/02/2020", "", "Platinum", "", "maybe", ""]);
    expect(m).toMatchObject({ name: "=1+1", country: null, createdAt: null, plan: null, newsletter: null });
    expect(m.notes).toEqual([
      "The name starts like a formula: kept as text",
      'No country "Atlantis": left empty',
      'The date joined "01/02/2020" is not YYYY-MM-DD: today is used',
      'Newsletter "maybe" is not yes or no: left as it is',
      'No membership plan "Platinum": no complimentary membership',
    ]);
    expect(member(["b@example.org", "", "", "", "", "", "yes", "2026-11-27", "", ""])).toMatchObject({
      plan: null,
      notes: ["The end date must be after today (2026-11-27): no complimentary membership"],
    });
  });

  it("takes Ghost's complimentary_plan true with its tier, or the first plan", () => {
    expect(member(["g@example.org", "", "", "", "", "", "true", "", "", "Gold"]).plan).toBe("gold");
    expect(member(["g@example.org", "", "", "", "", "", "TRUE", "", "", ""]).plan).toBe("supporter-monthly");
    expect(member(["g@example.org", "", "", "", "", "", "false", "", "", "Gold"]).plan).toBeNull();
  });

  it("reads dates as YYYY-MM-DD or ISO times only, and real days only", () => {
    expect(importDate("2023-04-01T10:20:30.000Z")).toBe("2023-04-01T10:20:30.000Z");
    expect(importDate("2023-04-01 10:20")).toBe("2023-04-01T10:20:00.000Z");
    expect(importDate("2023-04-01T12:00:00+02:00")).toBe("2023-04-01T10:00:00.000Z");
    expect(importDate("2023-02-30")).toBeNull();
    expect(importDate("1/4/2023")).toBeNull();
    expect(looksLikeFormula("@SUM(A1)")).toBe(true);
    expect(looksLikeFormula("Ann")).toBe(false);
  });
});

describe("what importing a line does", () => {
  const existing: ExistingMember = {
    id: "u1",
    username: "ada",
    name: "Ada",
    country: "GB",
    labels: ["VIP"],
    closed: false,
    paying: false,
    complimentary: null,
  };

  it("creates a member not here, updates one who is with what changed, and skips one with nothing new", () => {
    const line = member(["ada@example.org", "ada2", "Ada L", "AU", "", "VIP,Board", "", "", "", ""]);
    expect(planLine(line, null, false)).toMatchObject({ action: "create", reason: "" });
    expect(planLine(line, existing, false)).toMatchObject({
      action: "update",
      reason: "Already a member: name, country, labels. The username is kept as it is",
    });
    const same = member(["ada@example.org", "", "Ada", "GB", "", "VIP", "", "", "", ""]);
    expect(planLine(same, existing, false)).toEqual({ action: "skip", reason: "Already a member, nothing to change" });
    expect(planLine(same, { ...existing, closed: true }, false)).toEqual({
      action: "skip",
      reason: "A member with this e-mail has closed their account",
    });
  });

  it("gives no complimentary membership to a member who pays, and none twice", () => {
    const line = member(["ada@example.org", "", "", "", "", "", "Monthly", "", "yes", ""]);
    expect(planLine(line, { ...existing, paying: true }, true)).toEqual({
      action: "skip",
      reason: "Already a member, nothing to change. Pays for a membership: no complimentary one",
    });
    expect(planLine(line, { ...existing, complimentary: "supporter-monthly" }, true).action).toBe("skip");
    expect(planLine(line, existing, false)).toMatchObject({
      action: "update",
      reason: "Already a member: newsletter, complimentary supporter-monthly membership",
    });
  });

  it("makes a username from the e-mail when the file has none", () => {
    expect(usernameFromEmail("Jane.Doe+news@example.org")).toBe("jane-doe-news");
    expect(usernameFromEmail("jo@example.org")).toBe("member-jo");
  });

  it("keeps the letters people write in a username made from an e-mail, in the letters a username allows", () => {
    expect(usernameFromEmail("jöns.jakob@example.se")).toBe("jons-jakob");
    expect(usernameFromEmail("Maïbès@gmail.com")).toBe("maibes");
    expect(usernameFromEmail("søren.straße@example.dk")).toBe("soren-strasse");
    expect(usernameFromEmail("łukasz.żółw@example.pl")).toBe("lukasz-zolw");
    expect(usernameFromEmail("åsa@example.se")).toBe("asa");
    // What has no a-z spelling leaves a dash, as any other character does.
    expect(usernameFromEmail("анна.k@example.org")).toBe("member-k");
  });

  it("lists the usernames to try after the first", () => {
    expect(usernameCandidates("jane")).toEqual([
      "jane",
      "jane-2",
      "jane-3",
      "jane-4",
      "jane-5",
      "jane-6",
      "jane-7",
      "jane-8",
      "jane-9",
    ]);
  });
});
