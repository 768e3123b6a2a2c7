import { describe, expect, it } from "vitest";
import {
  canDeleteNotarize,
  canStartNotarize,
  notarizeDetailWords,
  notarizedHref,
  notarizeStatusLabel,
  signingHref,
} from "./notarize-view";

const base = { nz_id: "ot_sb_1", nz_status: "sent", access_url: "https://members.example/notary/sandbox/ot_sb_1" };

describe("the notarize page's words and links", () => {
  it("says each status in words, and that a removed one was removed", () => {
    expect(notarizeStatusLabel(null)).toBe("Not notarized");
    expect(notarizeStatusLabel({ nz_status: "completed", access_url: null })).toBe("Completed: notarized");
    expect(notarizeStatusLabel({ nz_status: null, access_url: null })).toBe("Removed at Notarize Online");
    expect(notarizeStatusLabel({ nz_status: "pending_review", access_url: null })).toBe("pending_review");
  });

  it("adds the notary's finer step in words only where it says more than the status", () => {
    expect(notarizeDetailWords({ nz_status: "sent", nz_status2: "sent_to_signer" })).toBeNull();
    expect(notarizeDetailWords({ nz_status: "in_progress", nz_status2: "meeting_in_progress" })).toBeNull();
    expect(notarizeDetailWords({ nz_status: "in_progress", nz_status2: "received" })).toBe("you opened it");
    expect(notarizeDetailWords({ nz_status: "cancelled", nz_status2: "declined" })).toBe("you declined to sign");
    expect(notarizeDetailWords({ nz_status: "in_progress", nz_status2: "awaiting_witness" })).toBe("awaiting witness");
    expect(notarizeDetailWords({ nz_status: null, nz_status2: "received" })).toBeNull();
    expect(notarizeDetailWords(null)).toBeNull();
  });

  it("lets a notice be sent again when it has none, was removed, expired or was cancelled", () => {
    expect(canStartNotarize(null)).toBe(true);
    expect(canStartNotarize({ nz_status: null })).toBe(true);
    expect(canStartNotarize({ nz_status: "expired" })).toBe(true);
    expect(canStartNotarize({ nz_status: "cancelled" })).toBe(true);
    expect(canStartNotarize({ nz_status: "sent" })).toBe(false);
    expect(canStartNotarize({ nz_status: "completed" })).toBe(false);
  });

  it("offers Delete until the notarization is completed", () => {
    expect(canDeleteNotarize({ nz_status: "sent" })).toBe(true);
    expect(canDeleteNotarize({ nz_status: null })).toBe(true);
    expect(canDeleteNotarize({ nz_status: "completed" })).toBe(false);
  });

  it("sends the signer to the sandbox's page on this site with the way back, and to Proof's link as given", () => {
    expect(signingHref(base, "/nol/creator/ts/notarize?version=A")).toBe(
      "/notary/sandbox/ot_sb_1?return=%2Fnol%2Fcreator%2Fts%2Fnotarize%3Fversion%3DA",
    );
    const proof = { nz_id: "ot_1", nz_status: "sent", access_url: "https://app.proof.com/transaction/ot_1?token=t" };
    expect(signingHref(proof, "/x")).toBe("https://app.proof.com/transaction/ot_1?token=t");
  });

  it("gives no signing link once completed, while a draft has none, or for a link that is not http(s)", () => {
    expect(signingHref({ ...base, nz_status: "completed" }, "/x")).toBeNull();
    expect(signingHref({ ...base, access_url: null }, "/x")).toBeNull();
    expect(signingHref({ ...base, access_url: "javascript:alert(1)" }, "/x")).toBeNull();
    expect(signingHref({ ...base, access_url: "not a url" }, "/x")).toBeNull();
  });

  it("links the notarized PDF only once completed", () => {
    expect(notarizedHref({ nz_id: "ot_1", nz_status: "completed" })).toBe("/api/nol/notarize/ot_1/document");
    expect(notarizedHref({ nz_id: "ot_1", nz_status: "sent" })).toBeNull();
    expect(notarizedHref(null)).toBeNull();
  });
});
