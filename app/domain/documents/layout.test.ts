import { describe, expect, it } from "vitest";
import { documentLines, encodableText, wrapText } from "./layout";
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
