import { describe, expect, it } from "vitest";
import { errorMessages, eventStatus, signerOf, statusOf, transactionOf } from "./proof-objects.server";

describe("Proof's statuses in our terms", () => {
  it.each([
    // [detailed_status, status, ours]: the detailed status decides where it names a step we know.
    ["draft", "started", "draft"],
    ["recalled", "started", "draft"],
    ["sent_to_signer", "sent", "sent"],
    ["active", "active", "sent"],
    ["completed", "completed", "completed"],
    ["expired", "expired", "expired"],
    ["completed_with_rejections", "completed_with_rejections", "cancelled"],
    ["declined", null, "cancelled"],
    // Otherwise the coarse status does.
    [null, "received", "in_progress"],
    ["meeting_in_progress", "received", "in_progress"],
    ["order_placed", "sent_to_closing_ops", "sent"],
    ["sent_to_title_agent", "sent_to_title_agency", "sent"],
    [null, "partially_completed", "in_progress"],
    [null, "started", "draft"],
    // A step neither names: the transaction exists and is under way.
    ["a_new_product_step", "a_new_status", "in_progress"],
    [null, null, "in_progress"],
  ] as const)("%s / %s → %s", (detailed, coarse, ours) => {
    expect(statusOf(detailed, coarse)).toBe(ours);
  });

  it.each([
    ["transaction.sent_to_signer", "sent"],
    ["transaction.recalled", "draft"],
    ["transaction.meeting.created", "in_progress"],
    ["transaction.completed", "completed"],
    ["transaction.released", "completed"],
    ["transaction.completed_with_rejections", "cancelled"],
    ["transaction.declined", "cancelled"],
    ["transaction.expired", "expired"],
    ["transaction.document.processed", null],
    ["notary.compliant", null],
  ] as const)("the webhook event %s says %s", (event, ours) => {
    expect(eventStatus(event, {})).toBe(ours);
  });

  it("takes a status the event carries (Webhooks V1's transaction_status_update) over its name", () => {
    expect(eventStatus("transaction_status_update", { status: "received" })).toBe("in_progress");
  });
});

describe("Proof's objects", () => {
  it("reads the signer's access link from `signers`, else `signer_info`, and keeps detailed_status as given", () => {
    const transaction = transactionOf({
      id: "ot_n87o6r4",
      status: "sent",
      detailed_status: "sent_to_signer",
      date_created: "2024-10-02T19:37:03.416081Z",
      date_updated: "2024-10-02T19:37:03.822153Z",
      signer_info: { email: "a@example.org", transaction_access_link: "https://app.proof.com/a" },
      signers: null,
    });
    expect(transaction).toEqual({
      id: "ot_n87o6r4",
      status: "sent",
      detailedStatus: "sent_to_signer",
      accessUrl: "https://app.proof.com/a",
      createdAt: new Date("2024-10-02T19:37:03.416Z"),
      updatedAt: new Date("2024-10-02T19:37:03.822Z"),
    });
  });

  it("splits the signer's name as first names and last name", () => {
    expect(signerOf({ name: "Ada King Lovelace", email: "a@example.org" })).toEqual({
      email: "a@example.org",
      first_name: "Ada King",
      last_name: "Lovelace",
    });
    expect(signerOf({ name: " Prince ", email: "p@example.org" })).toEqual({
      email: "p@example.org",
      first_name: "Prince",
    });
    expect(signerOf({ name: "", email: "x@example.org" })).toEqual({ email: "x@example.org" });
  });

  it("reads refusals as a list of messages, in each shape Proof sends", () => {
    expect(errorMessages({ errors: ["Need at least 1 signer"] })).toEqual(["Need at least 1 signer"]);
    expect(errorMessages({ errors: [{ message: "File is too big (max is 30MB)" }] })).toEqual([
      "File is too big (max is 30MB)",
    ]);
    expect(errorMessages({ errors: { request: "resource not found" } })).toEqual(["request resource not found"]);
    expect(errorMessages({ error: "Missing Webhook" })).toEqual(["Missing Webhook"]);
    expect(errorMessages("<html>Bad gateway</html>")).toEqual([]);
  });
});
