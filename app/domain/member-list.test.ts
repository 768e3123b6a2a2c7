import { describe, expect, it } from "vitest";
import { bulkActionOf, bulkDoneMessage, bulkFormSchema } from "./member-list";

const id = "7f1c2a52-3d7e-4b4e-9b7a-0a6f4c0e8d11";

describe("the members list's bulk actions", () => {
  it("read a flag change or an e-mail, on the members ticked or on all", () => {
    const flag = bulkFormSchema.parse({ action: "clear-nolTester", scope: "selected", ids: id });
    expect(bulkActionOf(flag)).toEqual({ kind: "flag", flag: "nolTester", value: false, ids: [id] });
    const mail = bulkFormSchema.parse({ action: "email", scope: "all", subject: "Hi", body: "Text" });
    expect(bulkActionOf(mail)).toEqual({ kind: "email", subject: "Hi", body: "Text", ids: "all" });
  });

  it("need ticked members, and a subject and text for an e-mail", () => {
    const errors = (input: unknown) => bulkFormSchema.safeParse(input).error?.flatten().fieldErrors;
    expect(errors({ action: "set-nolCreator", scope: "selected" })).toEqual({
      ids: ["Tick the members first, or choose every member of the list"],
    });
    expect(errors({ action: "email", scope: "all" })).toEqual({
      subject: ["Enter the e-mail's subject"],
      body: ["Write the e-mail"],
    });
    expect(errors({ action: "drop", scope: "all" })).toEqual({ action: ["Choose what to do"] });
  });

  it("say what they did", () => {
    expect(bulkDoneMessage({ kind: "flag", flag: "nolCreator", value: true, ids: "all" }, 1)).toBe(
      "1 member became NoL creator.",
    );
    expect(bulkDoneMessage({ kind: "flag", flag: "nolCreator", value: true, ids: "all" }, 3, ["ada", "bo", "cy"])).toBe(
      "3 members became NoL creator: ada, bo and cy.",
    );
    expect(
      bulkDoneMessage({ kind: "flag", flag: "nolTester", value: false, ids: "all" }, 12, "abcdefghijkl".split("")),
    ).toBe("12 members are no longer NoL tester: a, b, c, d, e, f, g, h, i, j and 2 more.");
    expect(bulkDoneMessage({ kind: "email", subject: "s", body: "b", ids: [id] }, 3)).toBe(
      "The e-mail is on its way to 3 members.",
    );
  });
});
