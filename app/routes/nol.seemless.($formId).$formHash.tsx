import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { causeSlug } from "~/domain/causes";
import { COMPANY_TAG, ENTRY_TYPE } from "~/domain/forms";
import { entryLabel } from "~/domain/nol/labels";
import { roundLabel } from "~/domain/nol/rounds";
import { getCauseCatalogue } from "~/services/causes.server";
import { useEffect, useState } from "react";
import { useNonce } from "~/components/nonce";
import { apiFetch } from "~/lib/state-client";
import { awaitSubmittedEntry } from "~/lib/submitted-entry";
import { seamlessEmbed } from "~/providers/forms/cognito.server";
import { authEntry, entriesOf } from "~/services/nol.server";
import { seemlessEntry } from "~/services/seemless.server";
import { requireMember } from "~/services/session.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.label ?? "Notice" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const url = new URL(request.url);
  const { row, owner, ownerRow, prefill } = await seemlessEntry(
    services.db,
    viewer,
    params.formId,
    params.formHash ?? "",
    url.searchParams.get("entry"),
  );
  const { config } = services;
  // With Cognito Forms the entry opens in its seamless embed, prefilled with the entry JSON.
  const embed =
    config.forms === "cognito" && config.cognitoEmbedKey
      ? seamlessEmbed({ apiUrl: config.cognitoApiUrl, embedKey: config.cognitoEmbedKey }, row.formId, {
          ...prefill,
          Username: owner,
          Cause: row.causeCode,
          DescriptiveVersion: row.descriptiveVersion,
          EntryType: ENTRY_TYPE,
          Company: COMPANY_TAG,
          Hash: authEntry(services, ownerRow).hash,
        })
      : null;
  const catalogue = await getCauseCatalogue(services.db);
  const cause = catalogue.causes[row.causeCode];
  const label = entryLabel({ form: row.form, tb_value: row.tbValue });
  const money = (cents: number | null) => (cents === null ? null : (cents / 100).toFixed(2));
  const rows = embed ? (await entriesOf(services.db, row.userId, row.causeCode)).length : 0;
  return json({
    embed,
    pending: {
      username: owner,
      cause: row.causeCode,
      descriptive_version: row.descriptiveVersion,
      prior_rows: rows,
      entry_id: row.id,
      prior_updated: row.updatedAt.toISOString(),
    },
    testMode: !config.isProduction,
    label: label.label,
    status: label.status,
    readOnly: label.readOnly,
    owner,
    version: row.descriptiveVersion,
    causeName: cause?.name ?? row.causeCode,
    causeHref: `/nol/creator/${cause ? causeSlug(cause.name) : row.causeCode}${owner === viewer.member.username ? "" : `?username=${owner}`}`,
    rounds: row.nolTracking.map((tracked, i) => ({
      round: i + 1,
      label: roundLabel(i + 1).label ?? `Round ${i + 1}`,
      tracked,
      mailed: row.nolMailingDate[i] ?? null,
      delivered: row.nolProofOfDelivery[i] ?? false,
    })),
    bill:
      row.form === "NoLBilling"
        ? {
            preparationDate: row.preparationDate,
            administrativeJudgment: money(row.administrativeJudgment),
            escalationFee: money(row.escalationFee),
            total: money(row.trueBillTotal),
            mailed: row.billMailingDate,
            delivered: row.billProofOfDelivery ?? false,
          }
        : null,
  });
}

/** The event our embed script raises when Cognito reports the form sent. */
const SUBMITTED_EVENT = "memberhall:form-submitted";

function CognitoEmbed({
  embed,
  pending,
  testMode,
}: {
  embed: NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["embed"]>;
  pending: ReturnType<typeof useLoaderData<typeof loader>>["pending"];
  testMode: boolean;
}) {
  const nonce = useNonce();
  const [state, setState] = useState<"idle" | "saving" | "arrived" | "timed-out">("idle");
  useEffect(() => {
    const onSubmitted = () => {
      setState("saving");
      const query = new URLSearchParams({ cause: pending.cause, username: pending.username });
      awaitSubmittedEntry(pending, {
        testMode,
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        postSubmitted: async (body) => {
          await apiFetch("/api/entry/cognito-submitted", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
          });
        },
        readEntries: async () => {
          const response = await apiFetch(`/api/entry/nol-member-versions?${query}`);
          const result = (await response.json()) as { list?: { id: string; updated: string }[] };
          const list = result.list ?? [];
          return { rows: list.length, updated: list.find((e) => e.id === pending.entry_id)?.updated ?? null };
        },
      }).then(
        (outcome) => setState(outcome === "timed-out" ? "timed-out" : "arrived"),
        () => setState("timed-out"),
      );
    };
    window.addEventListener(SUBMITTED_EVENT, onSubmitted);
    return () => window.removeEventListener(SUBMITTED_EVENT, onSubmitted);
  }, [pending, testMode]);
  // Prefill once the embed script has loaded, and report the form sent.
  const setup = `document.currentScript.previousElementSibling.addEventListener("load",function(){var C=window.Cognito;if(!C)return;C.prefill&&C.prefill(${embed.entry});C.on&&C.on("afterSubmit",function(){window.dispatchEvent(new Event("${SUBMITTED_EVENT}"))})});`;
  return (
    <div className="cognito-embed">
      <script src={embed.scriptSrc} data-key={embed.key} data-form={String(embed.formId)} nonce={nonce} async />
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: setup }} />
      <p role="status" aria-live="polite">
        {state === "saving" ? "Saving your entry…" : null}
        {state === "arrived" ? "Your entry is saved." : null}
        {state === "timed-out"
          ? "Your entry is taking longer than usual; it will appear in your list when it arrives."
          : null}
      </p>
    </div>
  );
}

export default function SeemlessEntry() {
  const e = useLoaderData<typeof loader>();
  if (e.embed) {
    return (
      <section className="card" aria-labelledby="entry-title">
        <h1 id="entry-title">{e.label}</h1>
        <CognitoEmbed embed={e.embed} pending={e.pending} testMode={e.testMode} />
      </section>
    );
  }
  return (
    <section className="card" aria-labelledby="entry-title">
      <p>
        <Link to={e.causeHref}>{e.causeName}</Link> · {e.version}
      </p>
      <h1 id="entry-title">{e.label}</h1>
      <p className="muted">
        {e.owner}
        {e.status ? ` · ${e.status}` : ""}
        {e.readOnly ? " · read-only" : ""}
      </p>
      {e.rounds.length > 0 ? (
        <div className="table-scroll">
          <table className="data">
            <thead>
              <tr>
                <th scope="col">Round</th>
                <th scope="col">Mailed</th>
                <th scope="col">Delivered</th>
              </tr>
            </thead>
            <tbody>
              {e.rounds.map((r) => (
                <tr key={r.round}>
                  <td>{r.label}</td>
                  <td>{r.mailed ?? "—"}</td>
                  <td>{r.delivered ? "yes" : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {e.bill ? (
        <ul>
          <li>Prepared: {e.bill.preparationDate ?? "—"}</li>
          <li>Administrative judgment: ${e.bill.administrativeJudgment}</li>
          <li>Escalation fee: ${e.bill.escalationFee}</li>
          <li>Total: ${e.bill.total}</li>
          <li>Mailed: {e.bill.mailed ?? "—"}</li>
          <li>Delivered: {e.bill.delivered ? "yes" : "—"}</li>
        </ul>
      ) : null}
    </section>
  );
}
