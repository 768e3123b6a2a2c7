import { describe, expect, it } from "vitest";
import { BackupStoreRefused, BackupStoreUnavailable } from "./backup-store/types";
import { isProviderError, providerErrorCode } from "./errors";
import { InvalidMailWebhook, MailHouseUnavailable, MailRefused } from "./mailhouse/types";
import { InvalidNotaryWebhook, NotaryRefused, NotaryUnavailable } from "./notary/types";
import { InvalidWebhookSignature, PaymentDeclined, PaymentsUnavailable } from "./payments/types";

/** An error as another copy of the module (a second bundle, a worker) would make it: same fields, another class. */
const fromAnotherCopy = (provider: string, code: string, message = "refused") =>
  Object.assign(new Error(message), { provider, code });

describe("providerErrorCode", () => {
  it.each([
    [new PaymentDeclined("Your card was declined."), "payment_declined"],
    [new PaymentsUnavailable("down"), "provider_unavailable"],
    [new InvalidWebhookSignature("no header"), "invalid_signature"],
    [new NotaryUnavailable("down"), "provider_unavailable"],
    [new NotaryRefused("already completed", 422), "notary_refused"],
    [new InvalidNotaryWebhook("bad signature"), "invalid_signature"],
    [new MailHouseUnavailable("down"), "provider_unavailable"],
    [new MailRefused("letter not deletable", 422, "not_deletable"), "mail_refused"],
    [new InvalidMailWebhook("stale"), "invalid_signature"],
    [new BackupStoreUnavailable("down"), "provider_unavailable"],
    [new BackupStoreRefused("Access Denied", 403, "AccessDenied"), "store_refused"],
  ])("reads %s as %s", (error, code) => {
    expect(providerErrorCode(error)).toBe(code);
  });

  it("recognises a provider's failure made by another copy of the error classes", () => {
    const error = fromAnotherCopy("notary", "notary_refused", "Transaction already completed");
    expect(error).not.toBeInstanceOf(NotaryRefused);
    expect(providerErrorCode(error)).toBe("notary_refused");
    expect(isProviderError(error, "notary_refused")).toBe(true);
    expect(isProviderError(error, "provider_unavailable")).toBe(false);
  });

  it.each([
    ["a Stripe error's own code", Object.assign(new Error("x"), { code: "card_declined", type: "card_error" })],
    ["a database error's code", Object.assign(new Error("x"), { code: "23505" })],
    ["an unknown code from a provider", fromAnotherCopy("payments", "something_else")],
    ["a known code from no provider", fromAnotherCopy("mail", "provider_unavailable")],
    ["a plain error", new Error("x")],
    ["a string", "provider_unavailable"],
    ["null", null],
  ])("is null for %s", (_what, error) => {
    expect(providerErrorCode(error)).toBeNull();
  });
});
