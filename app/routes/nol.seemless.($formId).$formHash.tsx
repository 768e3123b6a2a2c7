import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { causeSlug } from "~/domain/causes";
import { entryLabel } from "~/domain/nol/labels";
import { getCauseCatalogue } from "~/services/causes.server";
import { useNonce } from "~/components/nonce";
import { seamlessEmbed } from "~/providers/forms/cognito.server";
import { seemlessEntry } from "~/services/seemless.server";
import { requireMember } from "~/services/session.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.label ?? "Notice" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const url = new URL(request.url);
  const { row, owner, prefill } = await seemlessEntry(
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
          EntryType: "Continue with Round",
        })
      : null;
  const catalogue = await getCauseCatalogue(services.db);
  const cause = catalogue.causes[row.causeCode];
  const label = entryLabel({ form: row.form, tb_value: row.tbValue });
  const money = (cents: number | null) => (cents === null ? null : (cents / 100).toFixed(2));
  return json({
    embed,
    label: label.label,
    status: label.status,
    readOnly: label.readOnly,
    owner,
    version: row.descriptiveVersion,
    causeName: cause?.name ?? row.causeCode,
    causeHref: `/nol/creator/${cause ? causeSlug(cause.name) : row.causeCode}${owner === viewer.member.username ? "" : `?username=${owner}`}`,
    rounds: row.nolTracking.map((tracked, i) => ({
      round: i + 1,
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

function CognitoEmbed({ embed }: { embed: NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["embed"]> }) {
  const nonce = useNonce();
  const prefill = `document.currentScript.previousElementSibling.addEventListener("load",function(){window.Cognito&&window.Cognito.prefill(${embed.entry})});`;
  return (
    <div className="cognito-embed">
      <script src={embed.scriptSrc} data-key={embed.key} data-form={String(embed.formId)} nonce={nonce} async />
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: prefill }} />
    </div>
  );
}

export default function SeemlessEntry() {
  const e = useLoaderData<typeof loader>();
  if (e.embed) {
    return (
      <section className="card" aria-labelledby="entry-title">
        <h1 id="entry-title">{e.label}</h1>
        <CognitoEmbed embed={e.embed} />
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
                  <td>Round {r.round}</td>
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
