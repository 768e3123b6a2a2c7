import { describe, expect, it } from "vitest";
import {
  REMOVED_MESSAGE,
  UPDATED_MESSAGE,
  canSubmit,
  canUpdate,
  currentNotice,
  firstNzId,
  initialFlow,
  notarizeFlow,
  shouldLoadNotices,
  shouldRequestPreview,
  withNotice,
  type FlowEvent,
  type FlowNotice,
  type NotarizeFlow,
  type NotarizeJson,
} from "./notarize-flow";

const current = { cf_number: 7, cf_version: "Spring", round_cnt: 1 };

const notarize = (nzId: string, status = "sent"): NotarizeJson => ({
  notarize_id: 1,
  nz_id: nzId,
  created_at: "2026-11-01T00:00:00.000Z",
  updated_at: "2026-11-01T00:00:00.000Z",
  cost: 2500,
  nz_created: "2026-11-01T00:00:00.000Z",
  nz_updated: "2026-11-01T00:00:00.000Z",
  nz_status: status,
  nz_status2: "sent_to_signer",
  access_url: `https://notary.example/${nzId}`,
});

const notice = (id: number, round: number, n: NotarizeJson | null = null): FlowNotice => ({
  notice_id: id,
  round_cnt: round,
  notarize: n,
  notice_cf: { cf_number: 7, cf_version: "Spring" },
});

/** A flow with its notices and preview loaded, as the page has it once settled. */
function settled(list: FlowNotice[] = [notice(1, 1)]): NotarizeFlow {
  const events: FlowEvent[] = [{ type: "preview-started" }, { type: "preview-finished" }];
  return events.reduce(notarizeFlow, initialFlow({ allowed: true, cause: "TS", current, list }));
}

const run = (flow: NotarizeFlow, ...events: FlowEvent[]) => events.reduce(notarizeFlow, flow);

describe("spec §4 Notarize flow", () => {
  describe("Create (post) adds the notice's notarize to the list or updates it", () => {
    it("adds a notice the list did not have", () => {
      const flow = run(
        settled([]),
        { type: "action-started", kind: "create" },
        {
          type: "created",
          notice: notice(1, 1, notarize("ot_1")),
        },
      );
      expect(flow.list).toEqual([notice(1, 1, notarize("ot_1"))]);
      expect(flow.action).toMatchObject({ loading: false, error: null });
    });

    it("updates the notice the list had, in place", () => {
      const flow = run(
        settled([notice(1, 1), notice(2, 2)]),
        { type: "action-started", kind: "create" },
        {
          type: "created",
          notice: notice(1, 1, notarize("ot_1")),
        },
      );
      expect(flow.list.map((n) => n.notarize?.nz_id ?? null)).toEqual(["ot_1", null]);
    });

    it("a result with no notarize is the error and leaves the list be", () => {
      const flow = run(
        settled(),
        { type: "action-started", kind: "create" },
        {
          type: "created",
          notice: null,
          error: "An error occurred and has been reported.",
        },
      );
      expect(flow.action.error).toBe("An error occurred and has been reported.");
      expect(flow.list).toEqual([notice(1, 1)]);
    });

    it("withNotice keeps the others' order", () => {
      expect(withNotice([notice(1, 1), notice(2, 2)], notice(2, 2, notarize("x"))).map((n) => n.notice_id)).toEqual([
        1, 2,
      ]);
    });
  });

  describe("Refresh updates the status from the provider", () => {
    it("if the provider says the document is gone, the link is cleared and the warning shows", () => {
      const flow = run(
        settled([notice(1, 1, notarize("ot_1"))]),
        { type: "action-started", kind: "refresh" },
        {
          type: "refreshed",
          nzId: "ot_1",
          deleted: true,
          upd: false,
          error: REMOVED_MESSAGE,
        },
      );
      expect(flow.list[0]!.notarize).toMatchObject({ nz_id: "ot_1", access_url: null, nz_status: null });
      expect(flow.action).toMatchObject({ warn: REMOVED_MESSAGE, error: null });
    });

    it("a refresh that finds it there shows no message", () => {
      const flow = run(
        settled([notice(1, 1, notarize("ot_1"))]),
        { type: "action-started", kind: "refresh" },
        {
          type: "refreshed",
          nzId: "ot_1",
          deleted: false,
          upd: true,
        },
      );
      expect(flow.action).toMatchObject({ error: null, warn: null, success: null, loading: false });
      expect(flow.list[0]!.notarize!.access_url).toBe("https://notary.example/ot_1");
    });

    it("a failed refresh is its error", () => {
      const flow = run(
        settled([notice(1, 1, notarize("ot_1"))]),
        { type: "action-started", kind: "refresh" },
        {
          type: "refreshed",
          nzId: "ot_1",
          error: "Notarize Online cannot be reached right now.",
        },
      );
      expect(flow.action.error).toBe("Notarize Online cannot be reached right now.");
    });
  });

  it("Update (put) shows 'Updated status' on success", () => {
    const flow = run(
      settled([notice(1, 1, notarize("ot_1", "draft"))]),
      { type: "action-started", kind: "update" },
      {
        type: "updated",
        nzId: "ot_1",
        deleted: false,
        upd: true,
      },
    );
    expect(flow.action.success).toBe(UPDATED_MESSAGE);
    expect(UPDATED_MESSAGE).toBe("Updated status");
  });

  it("Delete clears the notarize on success, and only on success", () => {
    const start = settled([notice(1, 1, notarize("ot_1")), notice(2, 2, notarize("ot_2"))]);
    const failed = run(
      start,
      { type: "action-started", kind: "delete" },
      { type: "deleted", nzId: "ot_1", error: "No" },
    );
    expect(failed.list[0]!.notarize?.nz_id).toBe("ot_1");
    const done = run(start, { type: "action-started", kind: "delete" }, { type: "deleted", nzId: "ot_1" });
    expect(done.list.map((n) => n.notarize?.nz_id ?? null)).toEqual([null, "ot_2"]);
  });

  describe("Preview of the NoL is requested automatically when notarize-online is allowed and a current NoL exists", () => {
    it("is asked for once, when both hold", () => {
      const flow = initialFlow({ allowed: true, cause: "TS", current, list: [] });
      expect(shouldRequestPreview(flow)).toBe(true);
      expect(shouldRequestPreview(notarizeFlow(flow, { type: "preview-started" }))).toBe(false);
      expect(shouldRequestPreview(run(flow, { type: "preview-started" }, { type: "preview-finished" }))).toBe(false);
    });

    it("is not asked for when notarizing is not allowed, or there is no current NoL", () => {
      expect(shouldRequestPreview(initialFlow({ allowed: false, cause: "TS", current, list: [] }))).toBe(false);
      expect(shouldRequestPreview(initialFlow({ allowed: true, cause: "TS", current: null, list: [] }))).toBe(false);
    });
  });

  describe("Notices load when notarize-online is allowed and a cause is chosen", () => {
    it("loads when both hold and they are not loaded yet", () => {
      expect(shouldLoadNotices(initialFlow({ allowed: true, cause: "TS", current }))).toBe(true);
    });

    it("does not load without a cause, when not allowed, or when loading or loaded", () => {
      expect(shouldLoadNotices(initialFlow({ allowed: true, cause: null, current }))).toBe(false);
      expect(shouldLoadNotices(initialFlow({ allowed: false, cause: "TS", current }))).toBe(false);
      const flow = initialFlow({ allowed: true, cause: "TS", current });
      expect(shouldLoadNotices(notarizeFlow(flow, { type: "notices-started" }))).toBe(false);
      expect(shouldLoadNotices(initialFlow({ allowed: true, cause: "TS", current, list: [] }))).toBe(false);
    });

    it("a load that fails keeps the list and says why", () => {
      const flow = run(settled(), { type: "notices-started" }, { type: "notices-finished", error: "Down" });
      expect(flow.notices.error).toBe("Down");
      expect(flow.list).toEqual([notice(1, 1)]);
    });
  });

  describe("Refresh of the notarize status runs when the current notice first gets an nz_id", () => {
    it("runs on the change from none to one", () => {
      expect(firstNzId(null, "ot_1")).toBe("ot_1");
      expect(firstNzId(undefined, "ot_1")).toBe("ot_1");
    });

    it("does not run again for the same one, nor when it goes", () => {
      expect(firstNzId("ot_1", "ot_1")).toBeNull();
      expect(firstNzId("ot_1", null)).toBeNull();
      expect(firstNzId(null, null)).toBeNull();
    });

    it("the current notice is the one the current NoL names", () => {
      const flow = settled([
        notice(1, 1, notarize("ot_1")),
        { ...notice(2, 1), notice_cf: { cf_number: 8, cf_version: "Spring" } },
      ]);
      expect(currentNotice(flow)?.notice_id).toBe(1);
      expect(currentNotice({ ...flow, current: null })).toBeNull();
    });
  });

  describe("Notifications are cleared before each action", () => {
    it.each(["create", "refresh", "update", "delete"] as const)("%s starts with none", (kind) => {
      const before = run(
        settled([notice(1, 1, notarize("ot_1"))]),
        { type: "action-started", kind: "refresh" },
        {
          type: "refreshed",
          nzId: "ot_1",
          deleted: true,
        },
      );
      expect(before.action.warn).toBe(REMOVED_MESSAGE);
      const after = notarizeFlow(before, { type: "action-started", kind });
      expect(after.action).toMatchObject({ loading: true, error: null, warn: null, success: null, kind });
    });
  });

  it("Clearing the version clears all notarize results", () => {
    const flow = run(settled([notice(1, 1, notarize("ot_1"))]), { type: "version-cleared" });
    expect(flow.list).toEqual([]);
    expect(flow.current).toBeNull();
    expect(flow.action).toMatchObject({ loading: false, error: null, warn: null, success: null, kind: null });
  });

  describe("Can-update requires notices loaded without error and no notarize action in progress", () => {
    it("holds once the notices are loaded and nothing is under way", () => {
      expect(canUpdate(settled())).toEqual({ ok: true });
    });

    it("says why not: notices loading, not loaded, failed; an action under way", () => {
      const loading = initialFlow({ allowed: true, cause: "TS", current });
      expect(canUpdate(loading)).toEqual({ ok: false, reason: "Your notices are still loading." });
      expect(canUpdate(run(settled(), { type: "notices-started" }))).toEqual({
        ok: false,
        reason: "Your notices are still loading.",
      });
      expect(canUpdate(run(settled(), { type: "notices-started" }, { type: "notices-finished", error: "x" }))).toEqual({
        ok: false,
        reason: "Your notices could not be loaded.",
      });
      expect(canUpdate(run(settled(), { type: "action-started", kind: "refresh" }))).toEqual({
        ok: false,
        reason: "Wait for the action under way to finish.",
      });
    });

    it("does not depend on the preview", () => {
      expect(canUpdate(run(settled(), { type: "preview-started" })).ok).toBe(true);
    });
  });

  describe("Can-submit additionally needs the preview not loading and without error", () => {
    it("holds when can-update holds and the preview is there", () => {
      expect(canSubmit(settled())).toEqual({ ok: true });
    });

    it("says why not: the preview loading or failed, can-update's reasons, no current NoL", () => {
      expect(canSubmit(run(settled(), { type: "preview-started" }))).toEqual({
        ok: false,
        reason: "The preview is still loading.",
      });
      expect(canSubmit(run(settled(), { type: "preview-started" }, { type: "preview-finished", error: "x" }))).toEqual({
        ok: false,
        reason: "The preview could not be made.",
      });
      expect(canSubmit(run(settled(), { type: "action-started", kind: "create" }))).toMatchObject({ ok: false });
      expect(canSubmit({ ...settled(), current: null })).toEqual({
        ok: false,
        reason: "There is no current notice to notarize.",
      });
    });
  });
});
