import { describe, expect, it } from "vitest";
import { acceptStateUpdate, usernameChangeMessage, type SessionStateCore } from "./session-state";

const state = (username: string, agent: string | null = null) => ({ username, agent }) as SessionStateCore;

describe("state updates (spec §5, §8)", () => {
  it("takes a state for the same member", () => {
    expect(acceptStateUpdate(state("member"), state("member"))).toEqual({ accept: true });
  });

  it("'Server state changes that alter the username (without an agent) are rejected'", () => {
    expect(acceptStateUpdate(state("member"), state("intruder"))).toEqual({
      accept: false,
      reason: "username-changed",
    });
  });

  it("takes a changed username while an agent is set", () => {
    expect(acceptStateUpdate(state("admin"), state("member", "member"))).toEqual({ accept: true });
  });

  it("takes the first state there is", () => {
    expect(acceptStateUpdate(null, state("member"))).toEqual({ accept: true });
  });

  it("says the spec's message with the support address", () => {
    expect(usernameChangeMessage("help@example.org")).toBe(
      "An error has occurred and was reported.  Please try again.  You may contact support at help@example.org.",
    );
  });
});
