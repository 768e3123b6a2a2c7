import {
  finishRequest,
  initialRequestState,
  startRequest,
  type RequestState,
  type ServerOutcome,
} from "~/lib/request-state";
import type { NoticeIds } from "./notice-ids";

/**
 * The notarize page's state (spec §4 "Notarize flow"), one pure reducer for the page in the
 * browser: the notices of the cause, the preview of the current NoL, and the one notarize
 * action that may be under way, each with the request loading pattern.
 */

export const REMOVED_MESSAGE = "This document was removed at Notarize Online";
export const UPDATED_MESSAGE = "Updated status";

/** A notice's notarize as the API sends it (spec §3). */
export type NotarizeJson = {
  notarize_id: number;
  nz_id: string | null;
  created_at: string;
  updated_at: string;
  cost: number | null;
  nz_created: string | null;
  nz_updated: string | null;
  nz_status: string | null;
  nz_status2: string | null;
  access_url: string | null;
};

/** The parts of a notice (spec §3) the flow works on. */
export type FlowNotice = {
  notice_id: number;
  round_cnt: number;
  notarize: NotarizeJson | null;
  notice_cf: { cf_number: number; cf_version: string };
};

export type NotarizeAction = "create" | "refresh" | "update" | "delete";

export type NotarizeFlow = {
  /** The member version's features allow AllowNotarizeOnline and its step offers notarizing. */
  allowed: boolean;
  /** The cause chosen (its code); null before one is. */
  cause: string | null;
  /** The current NoL; null when the version has none to notarize. */
  current: NoticeIds | null;
  notices: RequestState;
  /** The notarize results: the cause's notices with their notarize. */
  list: FlowNotice[];
  preview: RequestState;
  /** The notarize action under way or last done; its error, warn and success are the page's notifications. */
  action: RequestState & { kind: NotarizeAction | null };
};

export type FlowEvent =
  | { type: "notices-started" }
  | { type: "notices-finished"; list?: FlowNotice[]; error?: string | null }
  | { type: "preview-started" }
  | { type: "preview-finished"; error?: string | null }
  | { type: "action-started"; kind: NotarizeAction }
  | { type: "created"; notice?: FlowNotice | null; error?: string | null }
  | { type: "refreshed" | "updated"; nzId: string; error?: string | null; deleted?: boolean; upd?: boolean }
  | { type: "deleted"; nzId: string; error?: string | null }
  | { type: "version-cleared" };

export function initialFlow(input: {
  allowed: boolean;
  cause: string | null;
  current: NoticeIds | null;
  list?: FlowNotice[];
}): NotarizeFlow {
  const loaded = input.list !== undefined;
  return {
    allowed: input.allowed,
    cause: input.cause,
    current: input.current,
    notices: loaded ? { ...initialRequestState, initialLoad: false } : initialRequestState,
    list: input.list ?? [],
    preview: initialRequestState,
    action: { ...initialRequestState, kind: null },
  };
}

/** "Notices load when notarize-online is allowed and a cause is chosen." */
export function shouldLoadNotices(flow: NotarizeFlow): boolean {
  return flow.allowed && flow.cause !== null && flow.notices.initialLoad && !flow.notices.loading;
}

/** "Preview of the NoL is requested automatically when notarize-online is allowed and a current NoL exists." */
export function shouldRequestPreview(flow: NotarizeFlow): boolean {
  return flow.allowed && flow.current !== null && flow.preview.initialLoad && !flow.preview.loading;
}

/** "Refresh of the notarize status runs when the current notice first gets an nz_id." */
export function firstNzId(before: string | null | undefined, after: string | null | undefined): string | null {
  return !before && after ? after : null;
}

/** The current NoL's notice among the results. */
export function currentNotice(flow: Pick<NotarizeFlow, "current" | "list">): FlowNotice | null {
  const { current } = flow;
  if (!current) return null;
  return (
    flow.list.find(
      (n) =>
        n.round_cnt === current.round_cnt &&
        n.notice_cf.cf_number === current.cf_number &&
        n.notice_cf.cf_version === current.cf_version,
    ) ?? null
  );
}

export type Permission = { ok: true } | { ok: false; reason: string };

/** "Can-update requires notices loaded without error and no notarize action in progress." */
export function canUpdate(flow: NotarizeFlow): Permission {
  if (flow.notices.loading || flow.notices.initialLoad) return { ok: false, reason: "Your notices are still loading." };
  if (flow.notices.error) return { ok: false, reason: "Your notices could not be loaded." };
  if (flow.action.loading) return { ok: false, reason: "Wait for the action under way to finish." };
  return { ok: true };
}

/** "Can-submit additionally needs the preview not loading and without error." */
export function canSubmit(flow: NotarizeFlow): Permission {
  const update = canUpdate(flow);
  if (!update.ok) return update;
  if (!flow.allowed || !flow.current) return { ok: false, reason: "There is no current notice to notarize." };
  if (flow.preview.loading) return { ok: false, reason: "The preview is still loading." };
  if (flow.preview.error) return { ok: false, reason: "The preview could not be made." };
  return { ok: true };
}

/** "Create (post) adds the notice's notarize to the list or updates it." */
export function withNotice(list: FlowNotice[], notice: FlowNotice): FlowNotice[] {
  return list.some((n) => n.notice_id === notice.notice_id)
    ? list.map((n) => (n.notice_id === notice.notice_id ? notice : n))
    : [...list, notice];
}

function mapNotarize(
  list: FlowNotice[],
  nzId: string,
  change: (notarize: NotarizeJson) => NotarizeJson | null,
): FlowNotice[] {
  return list.map((n) => (n.notarize?.nz_id === nzId ? { ...n, notarize: change(n.notarize) } : n));
}

/** "If the provider says the document is gone, the notarize link is cleared." */
const linkCleared = (notarize: NotarizeJson): NotarizeJson => ({
  ...notarize,
  access_url: null,
  nz_status: null,
  nz_status2: null,
});

function finishAction(flow: NotarizeFlow, outcome: ServerOutcome): NotarizeFlow {
  return { ...flow, action: { ...finishRequest(flow.action, outcome), kind: flow.action.kind } };
}

export function notarizeFlow(flow: NotarizeFlow, event: FlowEvent): NotarizeFlow {
  switch (event.type) {
    case "notices-started":
      return { ...flow, notices: startRequest(flow.notices) };
    case "notices-finished":
      return {
        ...flow,
        notices: finishRequest(flow.notices, { error: event.error }),
        list: event.error ? flow.list : (event.list ?? []),
      };
    case "preview-started":
      return { ...flow, preview: startRequest(flow.preview) };
    case "preview-finished":
      return { ...flow, preview: finishRequest(flow.preview, { error: event.error }) };
    case "action-started":
      // "Notifications are cleared before each action."
      return { ...flow, action: { ...startRequest(flow.action), kind: event.kind } };
    case "created": {
      if (!event.notice?.notarize) return finishAction(flow, { error: event.error ?? "Nothing was notarized." });
      return finishAction({ ...flow, list: withNotice(flow.list, event.notice) }, { success: null });
    }
    case "refreshed":
    case "updated": {
      if (event.deleted) {
        return finishAction(
          { ...flow, list: mapNotarize(flow.list, event.nzId, linkCleared) },
          { warn: REMOVED_MESSAGE },
        );
      }
      if (event.error) return finishAction(flow, { error: event.error });
      // "Update (put) shows 'Updated status' on success." The new status comes with the notices' next load.
      return finishAction(flow, { success: event.type === "updated" ? UPDATED_MESSAGE : null });
    }
    case "deleted":
      if (event.error) return finishAction(flow, { error: event.error });
      // "Delete clears the notarize on success."
      return finishAction({ ...flow, list: mapNotarize(flow.list, event.nzId, () => null) }, {});
    case "version-cleared":
      // "Clearing the version clears all notarize results."
      return {
        ...flow,
        current: null,
        list: [],
        preview: initialRequestState,
        action: { ...initialRequestState, kind: null },
      };
  }
}
