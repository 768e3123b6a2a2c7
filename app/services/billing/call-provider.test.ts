import { describe, expect, it } from "vitest";
import { DomainError } from "~/domain/errors";
import { callProvider } from "./checkout.server";

/** A provider's failure as another copy of the payments module would throw it: the fields, not the class. */
const failure = (code: string, message: string) => Object.assign(new Error(message), { provider: "payments", code });

describe("callProvider", () => {
  it("answers a decline with its message as a 400, whatever copy of the error class made it", async () => {
    const answer = callProvider(() => Promise.reject(failure("payment_declined", "Your card was declined.")));
    await expect(answer).rejects.toBeInstanceOf(DomainError);
    await expect(answer).rejects.toMatchObject({ status: 400, message: "Your card was declined." });
  });

  it("answers the provider being down with a 503 and the payments message", async () => {
    const answer = callProvider(() => Promise.reject(failure("provider_unavailable", "connect ECONNREFUSED")));
    await expect(answer).rejects.toMatchObject({ status: 503 });
    await expect(answer).rejects.not.toMatchObject({ message: "connect ECONNREFUSED" });
  });

  it("lets any other error through as it is", async () => {
    const other = new Error("a bug");
    await expect(callProvider(() => Promise.reject(other))).rejects.toBe(other);
  });
});
