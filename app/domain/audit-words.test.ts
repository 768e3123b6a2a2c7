import { describe, expect, it } from "vitest";
import { auditSubjectWords, membersNamed } from "./audit-words";

describe("what an audit entry was about, in words", () => {
  it("names the member, or says their account is gone", () => {
    expect(auditSubjectWords({ kind: "member", username: "ada" })).toBe("ada");
    expect(auditSubjectWords({ kind: "member", username: null })).toBe("A member whose account is gone");
  });

  it("names a NoL entry by its member, cause, version and round, as the spec names rounds", () => {
    const entry = { kind: "entry", owner: "creator", cause: "Traffic Stop", version: "Home" } as const;
    expect(auditSubjectWords({ ...entry, round: 2 })).toBe("creator's Traffic Stop version “Home”, Round 2");
    expect(auditSubjectWords({ ...entry, round: 5 })).toBe("creator's Traffic Stop version “Home”, Second True Bill");
    expect(auditSubjectWords({ ...entry, owner: null, round: "?" })).toBe(
      "A deleted member's Traffic Stop version “Home”",
    );
  });

  it("names the members a bulk change reached: all of a few, the first ten of many", () => {
    expect(auditSubjectWords({ kind: "members", count: 3, usernames: ["ada", "bo", "cy"] })).toBe(
      "3 members: ada, bo and cy",
    );
    expect(membersNamed(1, ["ada"])).toBe("1 member: ada");
    expect(membersNamed(0, [])).toBe("No member");
    expect(membersNamed(40, [])).toBe("40 members");
    const many = Array.from({ length: 10 }, (_, i) => `m${i}`);
    expect(membersNamed(1_204, many)).toBe("1,204 members: m0, m1, m2, m3, m4, m5, m6, m7, m8, m9 and 1,194 more");
  });

  it("names any other record by its kind and a name people read, never its bare id", () => {
    expect(auditSubjectWords({ kind: "record", entity: "coupon", name: "WELCOME10" })).toBe("Coupon WELCOME10");
    expect(auditSubjectWords({ kind: "record", entity: "subscription", name: null })).toBe("Membership");
    expect(auditSubjectWords({ kind: "record", entity: "some_new_thing", name: null })).toBe("Some new thing");
  });
});
