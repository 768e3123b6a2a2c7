import type { SerializeFrom } from "@remix-run/node";
import { Form, Link, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useReducer, useRef, useState, type FormEvent } from "react";
import { NotarizeCredits } from "~/components/billing/credits";
import { DocumentDisclaimer } from "~/components/documents/disclaimer";
import { Alert } from "~/components/ui/alert";
import { ConfirmButton } from "~/components/ui/confirm-button";
import {
  canSubmit,
  canUpdate,
  currentNotice,
  firstNzId,
  initialFlow,
  notarizeFlow,
  shouldLoadNotices,
  shouldRequestPreview,
  type FlowEvent,
  type FlowNotice,
  type NotarizeAction,
  type NotarizeFlow,
  type Permission,
} from "~/domain/documents/notarize-flow";
import {
  canDeleteNotarize,
  canStartNotarize,
  notarizeDetailWords,
  notarizeStatusLabel,
  notarizedHref,
  signingHref,
} from "~/domain/documents/notarize-view";
import { PREVIEW_PATH } from "~/domain/documents/paths";
import { roundLabel } from "~/domain/nol/rounds";
import { api } from "~/lib/api-client";
import { runRequest } from "~/lib/request-state";
import { apiFetch } from "~/lib/state-client";
import type { notarizePage, NotarizeOutcome } from "~/services/notary/page.server";
import { TableScroll } from "~/components/ui/table-scroll";

type Data = SerializeFrom<Awaited<ReturnType<typeof notarizePage>>>;
type Chosen = NonNullable<Data["chosen"]>;

/** /nol/{form}/{cause}/notarize: the versions of the cause, and the chosen one's notices and notarize. */
export function NotarizePageView({ data, outcome }: { data: Data; outcome: NotarizeOutcome | null }) {
  return (
    <section className="card" aria-labelledby="notarize-title">
      <p>
        <Link to={data.causeHref}>{data.cause.name}</Link>
      </p>
      <h1 id="notarize-title">Notarize online</h1>
      <DocumentDisclaimer text={data.disclaimer} />
      <p>
        A notice can be notarized online at its notice and mailing steps, and a true bill at its mailing step. You sign
        it with an online notary; the notarized PDF is then yours to download and mail. Notarizing online costs{" "}
        <strong>{data.cost}</strong> per notice.
      </p>
      {data.credits ? <NotarizeCredits balance={data.credits.balance} offer={data.credits.offer} /> : null}
      {data.versions.length === 0 ? (
        <p>
          You have no notices for this cause yet. <Link to={data.causeHref}>Start one</Link>.
        </p>
      ) : null}
      {data.versions.length > 1 ? (
        <nav aria-label="Versions">
          <ul>
            {data.versions.map((v) => (
              <li key={v.version}>
                <Link to={v.href} aria-current={v.chosen ? "page" : undefined}>
                  {v.version}
                </Link>{" "}
                <span className="muted">
                  ({v.step}
                  {v.ready ? ", can be notarized now" : v.notarized ? ", its notice notarized" : ""})
                </span>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {data.chosen ? (
        // A new version is a new flow: "Clearing the version clears all notarize results."
        <VersionNotarize
          key={data.chosen.version}
          chosen={data.chosen}
          causeCode={data.cause.code}
          returnPath={data.returnPath}
          outcome={outcome}
        />
      ) : null}
    </section>
  );
}

/** Where the page shows the notice through its links alone (app.css, .preview-phone-note). */
const PHONE_WIDTH = "(max-width: 699.98px)";

/** Whether the screen is a phone's width, followed as it turns; null until the page runs. */
function usePhoneWidth(): boolean | null {
  const [phone, setPhone] = useState<boolean | null>(null);
  useEffect(() => {
    const query = window.matchMedia(PHONE_WIDTH);
    const follow = () => setPhone(query.matches);
    follow();
    query.addEventListener("change", follow);
    return () => query.removeEventListener("change", follow);
  }, []);
  return phone;
}

type Send = (kind: NotarizeAction, input: { nzId?: string; draft?: boolean }) => Promise<void>;

/** The flow of one version in the browser: the preview asked for by itself, the actions through the API. */
function useNotarizeFlow(chosen: Chosen, causeCode: string) {
  const [flow, dispatch] = useReducer(
    notarizeFlow,
    { chosen, causeCode },
    ({ chosen: c, causeCode: code }): NotarizeFlow =>
      initialFlow({ allowed: c.reason === null, cause: code, current: c.current, list: c.notices }),
  );
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [scripted, setScripted] = useState(false);
  const revalidator = useRevalidator();
  useEffect(() => setScripted(true), []);

  const loadNotices = async () => {
    dispatch({ type: "notices-started" });
    const result = await runRequest(async () => {
      const r = await api<{ list: FlowNotice[] }>("/api/nol/notices", { query: { cause_code: causeCode } });
      return { list: r.data?.list ?? null, error: r.error ?? (r.data ? null : "Your notices could not be loaded.") };
    });
    const list = "list" in result ? (result.list ?? []) : [];
    dispatch({ type: "notices-finished", list, error: result.error });
  };

  // "Notices load when notarize-online is allowed and a cause is chosen."
  useEffect(() => {
    if (shouldLoadNotices(flow)) void loadNotices();
  });

  // "Preview of the NoL is requested automatically when notarize-online is allowed and a current NoL exists."
  // A phone shows no PDF inside a page (it offers the links alone): it is not kept waiting for one.
  const phone = usePhoneWidth();
  useEffect(() => {
    if (!shouldRequestPreview(flow) || !flow.current || phone !== false) return;
    const current = flow.current;
    dispatch({ type: "preview-started" });
    void runRequest(async () => {
      const response = await apiFetch(PREVIEW_PATH, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(current),
      });
      if (!response.ok || response.headers.get("content-type") !== "application/pdf") {
        const body = (await response.json().catch(() => null)) as { error?: string } | null;
        return { error: body?.error ?? `The preview could not be made (${response.status}).` };
      }
      setPreviewUrl(URL.createObjectURL(await response.blob()));
      return { error: null };
    }).then(({ error }) => dispatch({ type: "preview-finished", error }));
  });
  useEffect(() => () => void (previewUrl && URL.revokeObjectURL(previewUrl)), [previewUrl]);

  const send: Send = async (kind, { nzId, draft }) => {
    dispatch({ type: "action-started", kind });
    const path = nzId ? encodeURIComponent(nzId) : "";
    let event: FlowEvent;
    if (kind === "create") {
      const result = await runRequest(async () => {
        const r = await api<{ notice?: FlowNotice }>("/api/nol/notarize", {
          method: "POST",
          body: { ...flow.current, draft: draft ?? false },
        });
        return { notice: r.data?.notice ?? null, error: r.error };
      });
      event = { type: "created", notice: "notice" in result ? result.notice : null, error: result.error };
    } else if (kind === "delete") {
      const result = await runRequest(async () => ({
        error: (await api(`/api/nol/notarize/${path}`, { method: "DELETE" })).error,
      }));
      event = { type: "deleted", nzId: nzId!, error: result.error };
    } else {
      const result = await runRequest(async () => {
        const r =
          kind === "refresh"
            ? await api<{ deleted?: boolean; upd?: boolean }>(`/api/nol/notarize/refresh/${path}`, { method: "POST" })
            : await api<{ deleted?: boolean; upd?: boolean }>(`/api/nol/notarize/${path}`, {
                method: "PUT",
                body: { send: true },
              });
        return { deleted: r.data?.deleted ?? false, upd: r.data?.upd ?? false, error: r.error };
      });
      const deleted = "deleted" in result ? result.deleted : false;
      const upd = "upd" in result ? result.upd : false;
      event = { type: kind === "refresh" ? "refreshed" : "updated", nzId: nzId!, deleted, upd, error: result.error };
      dispatch(event);
      // The call says the status changed: the notices as they are now.
      if (upd && !deleted) await loadNotices();
      return;
    }
    dispatch(event);
    // A create or a delete may spend or give back a credit: the page's count as it is now.
    revalidator.revalidate();
  };

  // "Refresh of the notarize status runs when the current notice first gets an nz_id."
  const nzId = currentNotice(flow)?.notarize?.nz_id ?? null;
  const lastNzId = useRef(nzId);
  useEffect(() => {
    const first = firstNzId(lastNzId.current, nzId);
    lastNzId.current = nzId;
    if (first) void send("refresh", { nzId: first });
  });

  return { flow, previewUrl, scripted, send };
}

function VersionNotarize({
  chosen,
  causeCode,
  returnPath,
  outcome,
}: {
  chosen: Chosen;
  causeCode: string;
  returnPath: string;
  outcome: NotarizeOutcome | null;
}) {
  const { flow, previewUrl, scripted, send } = useNotarizeFlow(chosen, causeCode);
  const navigation = useNavigation();
  const posting = navigation.state === "submitting" && navigation.formMethod === "POST";
  const current = currentNotice(flow);
  // The notifications: the browser's last action, else what a plain form post answered.
  const shown = flow.action.kind || flow.action.loading ? flow.action : outcome;
  const update = posting ? busy : canUpdate(flow);
  const submit = posting ? busy : canSubmit(flow);
  const onSubmit = (kind: NotarizeAction, nzId?: string) => (event: FormEvent<HTMLFormElement>) => {
    if (!scripted) return;
    event.preventDefault();
    const draft = new FormData(event.currentTarget).get("draft") === "on";
    void send(kind, { nzId, draft });
  };
  const notarize = current?.notarize ?? null;
  const signing = notarize ? signingHref(notarize, returnPath) : null;
  const detail = notarizeDetailWords(notarize);
  const notarized = notarizedHref(notarize);
  return (
    <article aria-labelledby="version-title">
      <h2 id="version-title">{chosen.version}</h2>
      <p>
        Next step: <strong>{chosen.step}</strong>
      </p>
      {chosen.reason ? <Alert kind="warn">{chosen.reason}</Alert> : null}
      <div aria-live="polite">
        {flow.action.loading ? <p role="status">Working with Notarize Online…</p> : null}
        {shown?.error ? <Alert kind="error">{shown.error}</Alert> : null}
        {shown?.warn ? <Alert kind="warn">{shown.warn}</Alert> : null}
        {shown?.success ? <Alert kind="success">{shown.success}</Alert> : null}
        {flow.notices.error ? <Alert kind="error">{flow.notices.error}</Alert> : null}
      </div>
      {chosen.current && chosen.preview ? (
        <section aria-labelledby="current-title">
          <h3 id="current-title">{chosen.currentLabel} notice</h3>
          {chosen.written ? (
            <p data-testid="written-notice">
              This is the {chosen.currentLabel} notice as your saved answers make it. What you add when you save the
              notice step is not in the notarized document.
            </p>
          ) : null}
          <Preview state={flow.preview} url={previewUrl} links={chosen.preview} label={chosen.currentLabel ?? ""} />
          <p>
            Status: <strong data-testid="notarize-status">{notarizeStatusLabel(notarize)}</strong>
            {detail ? <span className="muted"> ({detail})</span> : null}
          </p>
          {signing ? (
            <p>
              <a className="button button-primary" href={signing}>
                Open the signing page
              </a>
            </p>
          ) : null}
          {notarized ? (
            <p>
              <a className="button button-primary" href={notarized} download>
                Download the notarized PDF
              </a>
            </p>
          ) : null}
          {canStartNotarize(notarize) ? (
            <Form method="post" className="form" onSubmit={onSubmit("create")}>
              <input type="hidden" name="intent" value="create" />
              <input type="hidden" name="cf_number" value={chosen.current.cf_number} />
              <input type="hidden" name="cf_version" value={chosen.current.cf_version} />
              <input type="hidden" name="round_cnt" value={chosen.current.round_cnt} />
              <p>
                <label>
                  <input type="checkbox" name="draft" /> Prepare it as a draft, and send it to the signer later with
                  Update (below, once it is made)
                </label>
              </p>
              <ActionButton permission={submit} id="why-not-submit">
                Notarize online
              </ActionButton>
            </Form>
          ) : null}
          {notarize?.nz_id ? (
            <div className="actions">
              <NzForm intent="refresh" nzId={notarize.nz_id} permission={update} onSubmit={onSubmit}>
                Refresh status
              </NzForm>
              <NzForm intent="update" nzId={notarize.nz_id} permission={update} onSubmit={onSubmit}>
                Update
              </NzForm>
              {canDeleteNotarize(notarize) ? (
                <NzForm intent="delete" nzId={notarize.nz_id} permission={update} onSubmit={onSubmit}>
                  Delete
                </NzForm>
              ) : null}
            </div>
          ) : null}
          {notarize?.nz_id ? (
            <p className="field-hint">
              Refresh status asks the notary where the notice stands. Update sends it to the signer: a draft for the
              first time, or again when the e-mail with the signing link went astray.
              {canDeleteNotarize(notarize) ? " Delete withdraws it from the notary, to start again." : ""}
            </p>
          ) : null}
        </section>
      ) : null}
      <NoticeTable notices={flow.list} current={current} returnPath={returnPath} />
    </article>
  );
}

const busy: Permission = { ok: false, reason: "Wait for the action under way to finish." };

function ActionButton({
  permission,
  id,
  children,
  danger = false,
}: {
  permission: Permission;
  id: string;
  children: string;
  danger?: boolean;
}) {
  const reason = permission.ok ? null : permission.reason;
  const props = { disabled: reason !== null, "aria-describedby": reason ? id : undefined };
  return (
    <>
      {danger ? (
        <ConfirmButton {...props}>{children}</ConfirmButton>
      ) : (
        <button type="submit" className="button button-primary" {...props}>
          {children}
        </button>
      )}
      {reason ? (
        <span id={id} className="muted">
          {" "}
          {reason}
        </span>
      ) : null}
    </>
  );
}

function NzForm({
  intent,
  nzId,
  permission,
  onSubmit,
  children,
}: {
  intent: Exclude<NotarizeAction, "create">;
  nzId: string;
  permission: Permission;
  onSubmit: (kind: NotarizeAction, nzId?: string) => (event: FormEvent<HTMLFormElement>) => void;
  children: string;
}) {
  return (
    <Form method="post" onSubmit={onSubmit(intent, nzId)}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="nz_id" value={nzId} />
      <ActionButton permission={permission} id={`why-not-${intent}`} danger={intent === "delete"}>
        {children}
      </ActionButton>
    </Form>
  );
}

/** The current NoL's document: shown once the browser has it; always reachable by its links. */
function Preview({
  state,
  url,
  links,
  label,
}: {
  state: NotarizeFlow["preview"];
  url: string | null;
  links: { href: string; download: string };
  label: string;
}) {
  return (
    <div className="template-preview notarize-preview">
      {/* The frame's room is kept while the preview is made, so the page does not move under the reader's pointer. */}
      {state.loading || state.error || url ? (
        <div className="preview-room">
          {state.loading ? (
            <div role="status" aria-busy="true">
              <p>Preparing the preview…</p>
              <div className="progress" aria-hidden="true" />
            </div>
          ) : null}
          {state.error ? <Alert kind="error">{state.error}</Alert> : null}
          {url && !state.loading && !state.error ? <iframe title={`Preview of the ${label} notice`} src={url} /> : null}
        </div>
      ) : null}
      <p className="preview-phone-note">
        A phone does not show a PDF inside a page: open the notice or download it with the links below.
      </p>
      <p>
        <a href={links.href} target="_blank" rel="noreferrer">
          Open the preview
        </a>
        {" · "}
        <a href={links.download} download>
          Download the preview
        </a>
      </p>
    </div>
  );
}

/** The member's notices of the cause (GET /api/nol/notices), each with its round and its notarize; the current one marked. */
function NoticeTable({
  notices,
  current,
  returnPath,
}: {
  notices: FlowNotice[];
  current: FlowNotice | null;
  returnPath: string;
}) {
  if (notices.length === 0) return <p>No notice of this version has been submitted yet.</p>;
  return (
    <TableScroll label="Your notices of this cause">
      <table className="data">
        <caption>Your notices of this cause</caption>
        <thead>
          <tr>
            <th scope="col">Round and version</th>
            <th scope="col">Notarize online</th>
            <th scope="col">Links</th>
          </tr>
        </thead>
        <tbody>
          {notices.map((n) => {
            const signing = n.notarize ? signingHref(n.notarize, returnPath) : null;
            const notarized = notarizedHref(n.notarize);
            return (
              <tr key={n.notice_id} aria-current={n === current ? "true" : undefined}>
                <th scope="row">
                  {roundLabel(n.round_cnt).label ?? n.round_cnt}{" "}
                  <span className="notice-version">{n.notice_cf.cf_version}</span>
                </th>
                <td>{notarizeStatusLabel(n.notarize)}</td>
                <td>
                  {signing ? <a href={signing}>Signing page</a> : null}
                  {notarized ? <a href={notarized}>Notarized PDF</a> : null}
                  {!signing && !notarized ? <span className="muted">—</span> : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}
