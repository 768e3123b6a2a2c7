import { describe, expect, it } from "vitest";
import { cleanLabel, importedLabels, splitLabels } from "./member-labels";

describe("a member's labels as people wrote them", () => {
  it.each([
    ['"Volunteers"', "Volunteers"],
    ["“Board”", "Board"],
    ["'Readers'", "Readers"],
    ['  ""Donors""  ', "Donors"],
    ["Volunteers", "Volunteers"],
    ['Say "hi" group', 'Say "hi" group'],
    ['""', ""],
  ])("%s is the label %s", (written, label) => {
    expect(cleanLabel(written)).toBe(label);
  });

  it("splits a cell into labels, a quoted one keeping its comma, each once", () => {
    expect(splitLabels('"Volunteers","Donors"')).toEqual(["Volunteers", "Donors"]);
    expect(splitLabels('"Board, 2021", VIP;Readers|VIP')).toEqual(["Board, 2021", "VIP", "Readers"]);
    expect(splitLabels('Volunteers, "Board, 2021"')).toEqual(["Volunteers", "Board, 2021"]);
    expect(splitLabels("VIP; Board,VIP")).toEqual(["VIP", "Board"]);
    expect(splitLabels("")).toEqual([]);
    expect(splitLabels('"",,;')).toEqual([]);
  });

  it("keeps at most twenty labels of fifty characters, saying what it cut", () => {
    const notes: string[] = [];
    const many = Array.from({ length: 22 }, (_, i) => `"L${i}"`).join(",");
    expect(importedLabels(many, notes)).toHaveLength(20);
    expect(importedLabels(`"${"x".repeat(60)}"`, notes)).toEqual(["x".repeat(50)]);
    expect(notes).toEqual(["More than 20 labels: the first 20 kept", "A label longer than 50 characters: cut"]);
  });
});
