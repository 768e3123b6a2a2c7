import { describe, expect, it } from "vitest";
import { isMailAddress, normalMailAddress } from "./mail-address";

describe("e-mail addresses", () => {
  it.each([
    "member@example.org",
    "first.last+tag@sub.example.co.uk",
    "o'brien@example.ie",
    "ömil@gmail.com",
    "maïbes@gmail.com",
    "用户@例子.广告",
    "info@xn--mller-kva.de",
    "δοκιμή@παράδειγμα.δοκιμή",
  ])("takes %s (RFC 6531 addresses included)", (address) => {
    expect(isMailAddress(address)).toBe(true);
  });

  it.each([
    ["no @", "not-an-address"],
    ["nothing before @", "@example.org"],
    ["nothing after @", "member@"],
    ["a domain of one label", "member@localhost"],
    ["two @ in the local part", "a@b@example.org"],
    ["a leading dot", ".member@example.org"],
    ["two dots in a row", "mem..ber@example.org"],
    ["a space", "mem ber@example.org"],
    ["a label ending with a hyphen", "member@example-.org"],
    ["an address literal", "member@[192.0.2.1]"],
    ["an all-digit top-level domain", "member@192.0.2.1"],
    ["a local part over 64 bytes", `${"ö".repeat(33)}@example.org`],
  ])("refuses %s", (_what, address) => {
    expect(isMailAddress(address)).toBe(false);
  });

  it("keeps an address in one normal form, in lower case", () => {
    // "ö" typed as o and a combining diaeresis is the same address as the one character.
    expect(normalMailAddress("O\u0308mil@Gmail.com")).toBe("ömil@gmail.com");
  });
});
