import { describe, expect, it } from "vitest";
import type * as errors from "./errors";
import { DomainError, isDomainError, notFound } from "./errors";

describe("DomainError", () => {
  it("is recognised across copies of the class, as the server's two bundles have", async () => {
    // A second copy of the module, as a second bundle would load it.
    const other = (await import(`./errors?copy=${Date.now()}`)) as typeof errors;
    expect(other.DomainError).not.toBe(DomainError);
    const foreign = other.notFound("No such member");
    expect(foreign instanceof DomainError).toBe(true);
    expect(isDomainError(foreign)).toBe(true);
    expect(notFound() instanceof other.DomainError).toBe(true);
  });

  it("is not any other error", () => {
    expect(new Error("x") instanceof DomainError).toBe(false);
    expect(isDomainError({ kind: "invalid", message: "x" })).toBe(false);
    expect(isDomainError(null)).toBe(false);
  });
});
