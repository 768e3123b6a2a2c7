import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import { noticeIdsQuerySchema, noticeIdsSchema, previewHref } from "./notice-ids";
import {
  fallbackScopes,
  newTemplateSchema,
  pickTemplate,
  scopeLabel,
  templateBodySchema,
  templateIdOf,
} from "./templates";
import { LAST_ROUND, roundChoices } from "./template-scope";

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(values)) data.set(k, v);
  return data;
};

describe("which template makes a round's document", () => {
  const t = (id: number, causeCode: string | null, round: number | null, version: number) => ({
    id,
    causeCode,
    kind: "notice" as const,
    round,
    version,
  });
  const templates = [t(1, null, null, 1), t(2, null, null, 2), t(3, null, 2, 1), t(4, "TS", null, 1), t(5, "TS", 3, 1)];

  it("falls back from the cause and round to any round, then any cause, then both", () => {
    expect(fallbackScopes({ causeCode: "TS", kind: "notice", round: 2 })).toEqual([
      { causeCode: "TS", kind: "notice", round: 2 },
      { causeCode: "TS", kind: "notice", round: null },
      { causeCode: null, kind: "notice", round: 2 },
      { causeCode: null, kind: "notice", round: null },
    ]);
    expect(fallbackScopes({ causeCode: null, kind: "notice", round: null })).toHaveLength(1);
  });

  it.each([
    ["TS", 3, 5],
    ["TS", 2, 4],
    ["PS", 2, 3],
    ["PS", 1, 2],
  ] as const)("cause %s round %i uses template %i (the newest version of the closest scope)", (cause, round, id) => {
    expect(pickTemplate(templates, { causeCode: cause, kind: "notice", round })?.id).toBe(id);
  });

  it("finds none for a kind without templates", () => {
    expect(pickTemplate(templates, { causeCode: "TS", kind: "true-bill", round: 4 })).toBeNull();
  });

  it("names a scope for the admin", () => {
    expect(scopeLabel({ causeCode: "TS", kind: "notice", round: 2 }, "Traffic Stop")).toBe(
      "Notice · Round 2 Notice of Fault · Traffic Stop",
    );
    expect(scopeLabel({ causeCode: null, kind: "true-bill", round: 5 }, null)).toBe(
      "True bill · Second True Bill · any cause",
    );
    expect(scopeLabel({ causeCode: null, kind: "true-bill", round: null }, null)).toBe(
      "True bill · any round · any cause",
    );
  });
});

describe("the rounds an admin picks a template's from", () => {
  it("names each round as the timeline does, never by its number alone", () => {
    const { notices, trueBills } = roundChoices();
    expect(notices).toEqual([
      { value: 1, name: "Round 1 Notice of Liability" },
      { value: 2, name: "Round 2 Notice of Fault" },
      { value: 3, name: "Round 3 Default" },
    ]);
    expect(trueBills[0]).toEqual({ value: 4, name: "First True Bill" });
    expect(trueBills[1]).toEqual({ value: 5, name: "Second True Bill" });
    expect(trueBills.at(-1)).toEqual({ value: LAST_ROUND, name: "197th True Bill" });
    for (const { name } of [...notices, ...trueBills]) expect(name).not.toMatch(/^\d+$/);
  });
});

describe("the template forms", () => {
  it("refuses a text with an unknown placeholder with a message on the text", () => {
    const submission = parseWithZod(form({ body: "Dear {{claimant}}" }), { schema: templateBodySchema("notice") });
    expect(submission.status === "error" && submission.error?.body).toEqual([
      "Unknown placeholder {{claimant}}: use the names listed with the text.",
    ]);
    expect(parseWithZod(form({ body: " " }), { schema: templateBodySchema("notice") }).status).toBe("error");
    expect(
      parseWithZod(form({ body: "Dear {{claimant.name}}" }), { schema: templateBodySchema("notice") }).status,
    ).toBe("success");
  });

  it("takes a new scope's round only when it fits its kind", () => {
    const parse = (values: Record<string, string>) =>
      parseWithZod(form({ intent: "create", ...values }), { schema: newTemplateSchema });
    const any = parse({ kind: "notice" });
    expect(any.status === "success" && any.value).toEqual({ intent: "create", kind: "notice" });
    expect(parse({ kind: "true-bill", round: "4", causeCode: "TS" }).status).toBe("success");
    const wrong = parse({ kind: "notice", round: "4" });
    expect(wrong.status === "error" && wrong.error?.round).toEqual([
      "A notice template is for one of the notices, a true bill template for a true bill",
    ]);
    const notNumber = parse({ kind: "true-bill", round: "four" });
    expect(notNumber.status === "error" && notNumber.error?.round).toEqual(["Choose a round"]);
    expect(parse({ kind: "letter" }).status).toBe("error");
    // A proof of service is made for any round, notice or true bill.
    for (const round of ["1", "3", "4", "12"])
      expect(parse({ kind: "proof-of-service", round }).status, round).toBe("success");
    const letter = parse({ kind: "letter" });
    expect(letter.status === "error" && letter.error?.kind).toEqual(["Choose notice, true bill or proof of service"]);
  });

  it("reads a template's id from an address, and nothing else", () => {
    expect(templateIdOf("12")).toBe(12);
    expect(templateIdOf("012")).toBeNull();
    expect(templateIdOf("1e3")).toBeNull();
    expect(templateIdOf("99999999999")).toBeNull();
    expect(templateIdOf(undefined)).toBeNull();
  });
});

describe("the current NoL's identifiers (spec §3)", () => {
  it("takes cf_number, cf_version (trimmed) and round_cnt, and nothing else", () => {
    expect(noticeIdsSchema.parse({ cf_number: 3, cf_version: " Spring ", round_cnt: 2 })).toEqual({
      cf_number: 3,
      cf_version: "Spring",
      round_cnt: 2,
    });
    expect(noticeIdsSchema.safeParse({ cf_number: "3", cf_version: "v", round_cnt: 2 }).success).toBe(false);
    expect(noticeIdsSchema.safeParse({ cf_number: 3, cf_version: "v", round_cnt: 0 }).success).toBe(false);
    expect(noticeIdsSchema.safeParse({ cf_number: 3, cf_version: "v", round_cnt: 1, extra: 1 }).success).toBe(false);
  });

  it("gives the address a page frames or links to, and reads it back", () => {
    const ids = { cf_number: 3, cf_version: "Spring 2026", round_cnt: 4 };
    const href = previewHref(ids, { download: true });
    expect(href).toBe("/api/nol/preview?cf_number=3&cf_version=Spring+2026&round_cnt=4&download=1");
    const query = Object.fromEntries(new URL(href, "http://localhost").searchParams);
    expect(noticeIdsQuerySchema.parse(query)).toEqual({ ...ids, download: "1" });
    expect(noticeIdsQuerySchema.safeParse({ ...query, cf_number: "x" }).success).toBe(false);
  });
});
