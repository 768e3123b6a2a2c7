import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { causeSlug } from "~/domain/causes";
import { COMPANY_TAG, ENTRY_TYPE } from "~/domain/forms";
import { entryLabel } from "~/domain/nol/labels";
import { roundLabel } from "~/domain/nol/rounds";
import { getCauseCatalogue } from "~/services/causes.server";
import { CognitoEmbed } from "~/components/cognito-embed";
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
