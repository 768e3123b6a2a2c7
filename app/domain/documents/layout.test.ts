import { describe, expect, it } from "vitest";
import { documentLines, encodableText, isHandSignatureLine, wrapText } from "./layout";
import { BLANK } from "./placeholders";

const chars = (text: string) => text.length;

describe("document lines", () => {
  it("makes headings of lines starting with '# ', and lines of a value of several lines", () => {
    const lines = documentLines("# {{title}}\nTo:\n{{respondents}}\r\n\nFrom {{claimant.name}}", {
      title: "Notice of Fault",
      respondents: "1. A (Official)\n2. B (Agency)",
      "claimant.name": "Cara",
    });
    expect(lines).toEqual([
      { style: "heading", text: "Notice of Fault" },
      { style: "text", text: "To:" },
      { style: "text", text: "1. A (Official)" },
      { style: "text", text: "2. B (Agency)" },
      { style: "text", text: "" },
      { style: "text", text: "From Cara" },
    ]);
  });

  it("never makes a heading of a value, and prints a blank for what is missing", () => {
    expect(documentLines("{{claimant.name}}\n{{mailing_date}}", { "claimant.name": "# Not a heading" })).toEqual([
      { style: "text", text: "# Not a heading" },
      { style: "text", text: BLANK },
    ]);
  });
});

describe("the address lines of a letter", () => {
  it("puts '@from' lines in the return address and '@to' lines in the window, a value of several lines in each", () => {
    const lines = documentLines(
      "@from {{claimant.name}}\n@to {{respondent.name}}\n@to {{respondent.address}}\nDear {{respondent.name}}",
      {
        "claimant.name": "Cara",
        "respondent.name": "Officer Example",
        "respondent.address": "1 Precinct Way\nSpringfield, IL 62701",
      },
    );
    expect(lines).toEqual([
      { style: "return-address", text: "Cara" },
      { style: "recipient", text: "Officer Example" },
      { style: "recipient", text: "1 Precinct Way" },
      { style: "recipient", text: "Springfield, IL 62701" },
      { style: "text", text: "Dear Officer Example" },
    ]);
  });

  it("marks only a line that starts with the mark", () => {
    expect(documentLines("Write to @to the respondent\n@tomorrow", {})).toEqual([
      { style: "text", text: "Write to @to the respondent" },
      { style: "text", text: "@tomorrow" },
    ]);
  });
});

describe("wrapping text into lines", () => {
  it("breaks at spaces so no line is wider than the width", () => {
    expect(wrapText("the quick brown fox jumps over", 10, chars)).toEqual(["the quick", "brown fox", "jumps over"]);
  });

  it("breaks a word only when it alone is wider than the width", () => {
    expect(wrapText("ab RR1234567890US cd", 6, chars)).toEqual(["ab", "RR1234", "567890", "US cd"]);
  });

  it("indents every line of an indented line, and keeps an empty line", () => {
    expect(wrapText("  one two three", 9, chars)).toEqual(["  one two", "  three"]);
    expect(wrapText("", 9, chars)).toEqual([""]);
    expect(wrapText("   ", 9, chars)).toEqual([""]);
  });
});

describe("text a font can draw", () => {
  const latin1 = (char: string) => char.codePointAt(0)! < 256;

  it("keeps what the font has, drops an accent it lacks, and marks the rest", () => {
    expect(encodableText("Café", latin1)).toBe("Café");
    expect(encodableText("Dvořák", latin1)).toBe("Dvorák");
    expect(encodableText("Łódź 北", latin1)).toBe("?ódz ?");
    expect(encodableText("a\tb", latin1)).toBe("a    b");
  });
});

describe("the place of the member's signature", () => {
  it("is the '@signature' line, the rest of the line printed under it; only a line that starts with the mark", () => {
    expect(
      documentLines("Yours,\n@signature {{claimant.name}}\nSee @signature below\n@signatures", {
        "claimant.name": "Cara",
      }),
    ).toEqual([
      { style: "text", text: "Yours," },
      { style: "signature", text: "Cara" },
      { style: "text", text: "See @signature below" },
      { style: "text", text: "@signatures" },
    ]);
  });

  it("is one line whatever its value fills to", () => {
    expect(documentLines("@signature {{claimant.address}}", { "claimant.address": "1 Road\nDover" })).toEqual([
      { style: "signature", text: "1 Road Dover" },
    ]);
  });

  it("in a signed document without the mark, takes the place of the last line to sign by hand", () => {
    const body = "Dear all\nSignature: ______\nText\nSigned, ____________\n{{claimant.name}}";
    expect(documentLines(body, { "claimant.name": "Cara" }, { signed: true })).toEqual([
      { style: "text", text: "Dear all" },
      { style: "text", text: "Signature: ______" },
      { style: "text", text: "Text" },
      { style: "signature", text: "" },
      { style: "text", text: "Cara" },
    ]);
    expect(documentLines("Hello\n____________________________\nCara", {}, { signed: true })[1]).toEqual({
      style: "signature",
      text: "",
    });
  });

  it("in a signed document with the mark, is the mark alone: lines to sign by hand stay as written", () => {
    expect(documentLines("Signed, ______\n@signature", {}, { signed: true })).toEqual([
      { style: "text", text: "Signed, ______" },
      { style: "signature", text: "" },
    ]);
  });

  it("in a signed document with neither, follows the text after a blank line", () => {
    expect(documentLines("Date: ________\nThe end.", {}, { signed: true })).toEqual([
      { style: "text", text: "Date: ________" },
      { style: "text", text: "The end." },
      { style: "text", text: "" },
      { style: "signature", text: "" },
    ]);
  });

  it("is never made of a value: a blank placeholder or a value of underscores stays text", () => {
    const lines = documentLines(
      "{{mailing_date}}\n{{claimant.name}}",
      { "claimant.name": "________" },
      { signed: true },
    );
    expect(lines.slice(0, 2)).toEqual([
      { style: "text", text: BLANK },
      { style: "text", text: "________" },
    ]);
    expect(lines.at(-1)).toEqual({ style: "signature", text: "" });
  });

  it("is not added to a document no one signs here", () => {
    expect(documentLines("I declare.\n____________\nCara", {})).toEqual([
      { style: "text", text: "I declare." },
      { style: "text", text: "____________" },
      { style: "text", text: "Cara" },
    ]);
  });

  it.each([
    ["____", true],
    ["  ______________  ", true],
    ["Signed, ____", true],
    ["Signed: ____________", true],
    ["Signature __________", true],
    ["Sign here: ______", true],
    ["Date: ______", false],
    ["Name: ______", false],
    ["___", false],
    ["Signed, ____ on ____", false],
    ["Signed", false],
  ])("reads %j as a line to sign by hand: %s", (line, hand) => {
    expect(isHandSignatureLine(line)).toBe(hand);
  });
});
