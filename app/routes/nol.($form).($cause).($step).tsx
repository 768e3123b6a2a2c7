import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { z } from "zod";
import { Alert } from "~/components/ui/alert";
import { CognitoEmbed } from "~/components/cognito-embed";
import { Field } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { COMPANY_TAG, ENTRY_TYPE } from "~/domain/forms";
import {
  formForStep,
  formListsEntry,
  formOffersStep,
  RESPONDENT_TYPES,
  slotsOpenIn,
  type BillLine,
} from "~/domain/nol/billing";
import { formFromParam, versionSchema, type NolForm } from "~/domain/nol/entries";
import { entryLabel } from "~/domain/nol/labels";
import { roundsDoneLabel } from "~/domain/nol/rounds";
import {
  AUTO_SELECT_MODES,
  autoSelect,
  canEdit,
  emptySelection,
  linkHash,
  selectByHash,
  type Selection,
} from "~/domain/nol/selection";
import { roundsDelivered, type StepKind } from "~/domain/nol/steps";
import { formFailure, readForm } from "~/services/forms.server";
import { causeChoices, requireCause } from "~/services/nol-pages.server";
import {
  AccessError,
  entriesOf,
  facts,
  hostedStep,
  nextBillLines,
  respondentsOf,
  resolveOwner,
  seemlessLink,
  STEP_KINDS,
  submitStep,
  versionsOf,
  versionState,
} from "~/services/nol.server";
import { redirectWithFlash, requireMember, siteCookies } from "~/services/session.server";

const FORM_NAMES: Record<NolForm, string> = {
  NoLCreator2: "Notice creator",
  NoLProfileBilling: "Billing profile",
  NoLBilling: "True bills",
};

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Notice of Liability" }];

const querySchema = z.object({
  version: versionSchema.optional().catch(undefined),
  username: z.string().trim().min(1).max(32).optional().catch(undefined),
  /** An entry's edit or view link (or its hash) to select (spec §4 "Selection"). */
  href: z.string().trim().min(1).max(2_000).optional().catch(undefined),
  auto: z.enum(AUTO_SELECT_MODES).optional().catch(undefined),
});

async function context_(
  request: Request,
  params: LoaderFunctionArgs["params"],
  context: LoaderFunctionArgs["context"],
) {
  const { viewer, services } = await requireMember(request, context);
  if (!params.form) throw redirect("/nol/creator");
  const form = formFromParam(params.form);
  if (!form) throw redirect("/nol/NotFound");
  const query = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  let owner;
  try {
    owner = await resolveOwner(services.db, viewer, query.username);
  } catch (error) {
    if (error instanceof AccessError) throw json(error.message, { status: error.status });
    throw error;
  }
  return { viewer, services, form, query, owner };
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services, query, owner, form } = await context_(request, params, context);
  const base = `/nol/${params.form}`;
  if (!params.cause) {
    const { choices, anyAvailable } = await causeChoices(services, owner);
    return json({
      view: "causes" as const,
      title: "Choose a cause",
      base,
      choices,
      ownerQuery: owner.id === viewer.member.id ? "" : `?username=${encodeURIComponent(owner.username)}`,
      anyAvailable,
      creatorOrTester: owner.nolCreator || owner.nolTester,
    });
  }
  const cause = await requireCause(services, owner, params.cause);
  const rows = await entriesOf(services.db, owner.id, cause.code);
  const causeBase = `${base}/${cause.slug}`;
  const suffix = owner.id === viewer.member.id ? "" : `&username=${encodeURIComponent(owner.username)}`;

  if (!params.step) {
    const listed = rows.filter((row) => formListsEntry(form, row.form)).map(facts);
    const cookies = siteCookies(services.config);
    const remembered = await cookies.nolSelected.parse(request.headers.get("cookie"));
    const previous = typeof remembered === "string" ? remembered : null;
    let selection: Selection = emptySelection;
    let selectionNotice: string | null = null;
    if (query.href) {
      selection = selectByHash(listed, linkHash(query.href), emptySelection);
      if (!selection.selectedNolId) selectionNotice = "No single notice matches that link, so nothing is selected.";
    } else {
      const chosen = autoSelect(query.auto ?? "never", listed, previous);
      const entry = listed.find((e) => e.id === chosen);
      if (entry) selection = selectByHash([entry], linkHash(entry.view_link), emptySelection);
    }
    const selectedEntry = listed.find((e) => e.id === selection.selectedNolId) ?? null;
    const versions = versionsOf(rows).map((version) => {
      const state = versionState(rows, version);
      const delivered = roundsDelivered(state.creator?.nolProofOfDelivery ?? null);
      const selectedHere = selectedEntry?.descriptive_version === version ? selectedEntry : null;
      const elsewhere = formForStep(state.step.kind, state.bills.length > 0);
      return {
        version,
        step: state.step,
        selected: selectedHere !== null,
        roundsDone: delivered > 0 ? roundsDoneLabel(delivered) : null,
        entries: [state.creator, state.billingProfile, ...state.bills]
          .filter((e) => e !== null && formListsEntry(form, e.form))
          .map((e) => {
            const label = entryLabel({ form: e!.form, tb_value: e!.tbValue });
            // "The edit permission exists only if the selected entry has an edit_link": the
            // entry's own (a hosted form's), and never on a read-only entry.
            const editable = selectedHere?.id === e!.id && canEdit({ edit_link: e!.editLink }) && !label.readOnly;
            return {
              id: e!.id,
              ...label,
              viewLink: seemlessLink(e!, e!.viewHash),
              editLink: editable ? e!.editLink : null,
            };
          }),
        nextHref: formOffersStep(form, state.step.kind, {
          selectedEntryId: selectedHere?.id ?? null,
          billExistsForVersion: state.bills.length > 0,
        })
          ? `${causeBase}/${state.step.kind}?version=${encodeURIComponent(version)}${suffix}`
          : null,
        elsewhere: {
          href: stepHref(elsewhere, cause.slug, state.step.kind, version, suffix),
          name: FORM_NAMES[elsewhere],
        },
      };
    });
    const headers = new Headers();
    if (selection.selectedNolId && selection.selectedNolId !== previous) {
      headers.append("Set-Cookie", await cookies.nolSelected.serialize(selection.selectedNolId));
    } else if (!selection.selectedNolId && previous && (query.href || query.auto === "never")) {
      // A cleared selection stays cleared: "back" has nothing to go back to.
      headers.append("Set-Cookie", await cookies.nolSelected.serialize("", { maxAge: 0 }));
    }
    return json(
      {
        view: "versions" as const,
        title: cause.name,
        base,
        cause,
        versions,
        causeBase,
        owner: owner.username,
        suffix,
        formName: FORM_NAMES[form],
        selectionNotice,
        clearSelectionHref: `${causeBase}?auto=never${suffix}`,
      },
      { headers },
    );
  }

  if (!STEP_KINDS.includes(params.step as StepKind)) throw json("This page could not be found", { status: 404 });
  const version = query.version;
  if (!version) throw redirect(causeBase);
  const state = versionState(rows, version);
  if (state.step.kind !== params.step)
    throw redirect(`${causeBase}/${state.step.kind}?version=${encodeURIComponent(version)}${suffix}`);
  // A step this form does not offer is taken on the form that does.
  const billed = state.bills.length > 0;
  if (!formOffersStep(form, state.step.kind, { selectedEntryId: null, billExistsForVersion: billed }))
    throw redirect(stepHref(formForStep(state.step.kind, billed), cause.slug, state.step.kind, version, suffix));
  const profile = (state.creator?.profile ?? state.billingProfile?.profile ?? {}) as { DailyAmount?: number };
  return json({
    view: "step" as const,
    title: state.step.label,
    base,
    cause,
    causeBase,
    version,
    step: state.step,
    slots: state.step.kind === "notice" ? slotsOpenIn(state.step.round ?? 1) : 0,
    prefill: {
      claimantName: (state.creator?.data as { claimantName?: string } | undefined)?.claimantName ?? owner.name ?? "",
      dailyAmount: profile.DailyAmount !== undefined ? String(profile.DailyAmount) : "",
    },
    priorJudgment: state.bills.at(-1)?.administrativeJudgment ?? null,
    billLines: await nextBillLines(services.db, state),
    hosted: hostedStep(services, owner, cause.code, state, rows.length),
    testMode: !services.config.isProduction,
    // Later rounds show the respondents named before, so nothing has to be typed twice.
    respondents:
      state.step.kind === "notice" && state.creator
        ? Object.fromEntries(
            (await respondentsOf(services.db, [state.creator.id])).map((r) => [r.slot, { name: r.name, type: r.type }]),
          )
        : {},
  });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { viewer, services, query, owner, form: nolForm } = await context_(request, params, context);
  if (!params.cause || !params.step || !STEP_KINDS.includes(params.step as StepKind)) {
    throw json("This page could not be found", { status: 404 });
  }
  const cause = await requireCause(services, owner, params.cause);
  const form = await readForm(request);
  // With hosted forms, entries come from Cognito's webhooks only: one source of entry ids.
  if (services.config.forms === "cognito") {
    return formFailure(form, {}, "Fill in the form on this page: it is sent to the forms service.", 409);
  }
  const version = versionSchema.safeParse(form.get("version") ?? query.version);
  if (!version.success) return formFailure(form, { version: version.error.flatten().formErrors });
  const suffix = owner.id === viewer.member.id ? "" : `?username=${encodeURIComponent(owner.username)}`;
  const current = versionState(await entriesOf(services.db, owner.id, cause.code), version.data);
  const billed = current.bills.length > 0;
  if (!formOffersStep(nolForm, params.step, { selectedEntryId: null, billExistsForVersion: billed })) {
    const elsewhere = formForStep(params.step, billed);
    return redirectWithFlash(
      stepHref(elsewhere, cause.slug, params.step, version.data, suffix),
      { kind: "warn", message: `This step is taken on the ${FORM_NAMES[elsewhere].toLowerCase()} page.` },
      services.config,
    );
  }
  const result = await submitStep(services, viewer, owner, {
    causeCode: cause.code,
    version: version.data,
    kind: params.step as StepKind,
    form,
  });
  // The step was taken meanwhile (another tab, a double submit): say so where the version is.
  if (!result.ok && result.status === 409) {
    return redirectWithFlash(
      `/nol/${params.form}/${cause.slug}${suffix}`,
      { kind: "warn", message: result.message ?? "This step was already saved." },
      services.config,
    );
  }
  if (!result.ok) return formFailure(form, result.fieldErrors, result.message, result.status);
  const next = versionState(await entriesOf(services.db, owner.id, cause.code), version.data).step;
  return redirectWithFlash(
    `/nol/${params.form}/${cause.slug}${suffix}`,
    { kind: "success", message: `Saved. Next: ${next.label}.` },
    services.config,
  );
}

function Causes({ data }: { data: Extract<ReturnType<typeof useLoaderData<typeof loader>>, { view: "causes" }> }) {
  const note = { live: "", testing: " (testing: open to testers)", beta: " (coming soon)" } as const;
  return (
    <section className="card" aria-labelledby="causes-title">
      <h1 id="causes-title">Choose a cause</h1>
      {data.creatorOrTester ? null : (
        <Alert kind="warn">
          The notice creator is open to NoL creators and testers. Ask an admin to open it for you.
        </Alert>
      )}
      {data.choices.length === 0 ? <p>No causes are offered in your country yet.</p> : null}
      {data.choices.length > 0 && !data.anyAvailable ? (
        <p>No cause is available in your country yet; the ones below are still being tested or prepared.</p>
      ) : null}
      <ul className="cause-list">
        {data.choices.map((c) => (
          <li key={c.code} data-status={c.status}>
            {c.enabled ? (
              <Link to={`${data.base}/${c.slug}${data.ownerQuery}`}>{c.name}</Link>
            ) : (
              <span className="disabled" aria-disabled="true">
                {c.name}
              </span>
            )}
            <span className="muted">{note[c.status]}</span>
          </li>
        ))}
      </ul>
      <p>
        <Link to="/nol/editor">Who may edit your notices</Link>
      </p>
    </section>
  );
}

function Versions({ data }: { data: Extract<ReturnType<typeof useLoaderData<typeof loader>>, { view: "versions" }> }) {
  const failure = useActionData<typeof action>();
  return (
    <section className="card" aria-labelledby="versions-title">
      <p>
        <Link to={data.base}>All causes</Link>
      </p>
      <h1 id="versions-title">{data.cause.name}</h1>
      <p className="muted">{data.formName}</p>
      {data.selectionNotice ? <Alert kind="warn">{data.selectionNotice}</Alert> : null}
      {data.versions.length === 0 ? <p>You have no notices for this cause yet.</p> : null}
      {data.versions.map((v) => (
        <article
          key={v.version}
          className={v.selected ? "version version-selected" : "version"}
          aria-labelledby={`v-${v.version}`}
          aria-current={v.selected ? "true" : undefined}
        >
          <h2 id={`v-${v.version}`}>
            {v.version}
            {v.selected ? <span className="badge">Selected</span> : null}
          </h2>
          <p>
            {v.roundsDone ? <>Done: {v.roundsDone}. </> : null}
            Next: <strong data-testid="next-step">{v.step.label}</strong>
            {v.step.notarize ? <span className="muted"> · can be notarized online</span> : null}
          </p>
          <ul>
            {v.entries.map((e) => (
              <li key={e.id}>
                {/* A document link: the client router reads the hash's trailing "*" as a wildcard. */}
                <a href={e.viewLink}>{e.label}</a>
                {e.status ? ` · ${e.status}` : ""}
                {e.readOnly ? " · read-only" : ""}
                {e.editLink ? (
                  <>
                    {" · "}
                    <a href={e.editLink}>Edit</a>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
          <div className="actions">
            {v.nextHref ? (
              <Link className="button button-primary" to={v.nextHref}>
                Continue: {v.step.label}
              </Link>
            ) : (
              <Link className="button" to={v.elsewhere.href}>
                {v.step.label}: {v.elsewhere.name.toLowerCase()}
              </Link>
            )}
            {v.selected ? <Link to={data.clearSelectionHref}>Clear the selection</Link> : null}
          </div>
        </article>
      ))}
      <h2>Start a new notice</h2>
      <Form method="get" action={`${data.causeBase}/notice`} className="form">
        {data.suffix ? <input type="hidden" name="username" value={data.owner} /> : null}
        <Field
          label="Name of this version"
          name="version"
          required
          maxLength={120}
          hint="For example the respondent's office and the year."
          errors={failure && !failure.ok ? failure.fieldErrors.version : undefined}
        />
        <div className="actions">
          <button type="submit" className="button">
            Start
          </button>
        </div>
      </Form>
    </section>
  );
}

function TimezoneField() {
  const [zone, setZone] = useState("UTC");
  useEffect(() => setZone(Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"), []);
  return <input type="hidden" name="timezone" value={zone} />;
}

const NOT_BILLED = {
  ended: "no longer billed: billing was stopped on an earlier true bill",
  "joinder-skip": "not billed on this true bill: Joinder respondents skip it",
} as const;

/** The respondents of a true bill: who it bills, with their continue and status flags. */
function BillRespondents({ lines }: { lines: BillLine[] }) {
  if (lines.length === 0) return null;
  return (
    <fieldset className="bill-respondents">
      <legend>Respondents on this true bill</legend>
      <ul>
        {lines.map((line) => (
          <li key={line.slot} data-testid={`bill-respondent-${line.slot}`}>
            <strong>{line.name}</strong> <span className="muted">({line.type})</span>
            {line.billed ? (
              <div className="checks">
                <label>
                  <input type="checkbox" name={`status${line.slot}`} defaultChecked /> Still liable
                </label>
                <label>
                  <input type="checkbox" name={`continue${line.slot}`} defaultChecked /> Bill again on the next true
                  bill
                </label>
              </div>
            ) : (
              <span> — {NOT_BILLED[line.reason!]}</span>
            )}
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** The address of a step of a version on a form's page. */
function stepHref(form: NolForm, causeSlug: string, step: string, version: string, suffix: string): string {
  const param = form === "NoLCreator2" ? "creator" : form;
  return `/nol/${param}/${causeSlug}/${step}?version=${encodeURIComponent(version)}${suffix.replace(/^\?/, "&")}`;
}

function DailyAmountField({ value, errors }: { value: string | undefined; errors: string[] | undefined }) {
  return (
    <Field
      label="Daily amount (USD)"
      name="dailyAmount"
      inputMode="decimal"
      required
      defaultValue={value}
      errors={errors}
    />
  );
}

function StepForm({ data }: { data: Extract<ReturnType<typeof useLoaderData<typeof loader>>, { view: "step" }> }) {
  const failure = useActionData<typeof action>();
  const errors = failure && !failure.ok ? failure.fieldErrors : {};
  const values = failure && !failure.ok ? failure.values : {};
  const { step } = data;
  return (
    <section className="card" aria-labelledby="step-title">
      <p>
        <Link to={data.causeBase}>{data.cause.name}</Link> · {data.version}
      </p>
      <h1 id="step-title">{step.label}</h1>
      {failure && !failure.ok && failure.formError ? <Alert kind="error">{failure.formError}</Alert> : null}
      {data.hosted?.kind === "embed" ? (
        <CognitoEmbed embed={data.hosted.embed} pending={data.hosted.pending} testMode={data.testMode} />
      ) : data.hosted?.kind === "edit" ? (
        data.hosted.editLink ? (
          <p>
            Record this step in your entry at the forms service:{" "}
            <a href={data.hosted.editLink} rel="noreferrer">
              open your entry
            </a>
            . Your notices here update when the forms service sends the entry back.
          </p>
        ) : (
          <Alert kind="warn">This entry was not made at the forms service, so it cannot be continued there.</Alert>
        )
      ) : (
        <Form method="post" className="form" noValidate>
          <input type="hidden" name="version" value={data.version} />
          <input type="hidden" name="company" value={COMPANY_TAG} />
          <input type="hidden" name="entryType" value={ENTRY_TYPE} />
          <TimezoneField />
          {step.kind === "notice" ? (
            <>
              <Field
                label="Claimant's name"
                name="claimantName"
                required
                defaultValue={values.claimantName ?? data.prefill.claimantName}
                errors={errors.claimantName}
              />
              <DailyAmountField value={values.dailyAmount ?? data.prefill.dailyAmount} errors={errors.dailyAmount} />
              <fieldset>
                <legend>Respondents (slots 1 to {data.slots})</legend>
                {Array.from({ length: data.slots }, (_, i) => i + 1).map((slot) => (
                  <div className="respondent" key={slot}>
                    <Field
                      label={`Respondent ${slot}`}
                      name={`r${slot}Name`}
                      defaultValue={values[`r${slot}Name`] ?? data.respondents[slot]?.name}
                      errors={errors[`r${slot}Name`]}
                    />
                    <div className="field">
                      <label htmlFor={`r${slot}Type`}>Type of respondent {slot}</label>
                      <select
                        id={`r${slot}Type`}
                        name={`r${slot}Type`}
                        defaultValue={values[`r${slot}Type`] ?? data.respondents[slot]?.type ?? "Individual"}
                      >
                        {RESPONDENT_TYPES.map((t) => (
                          <option key={t}>{t}</option>
                        ))}
                      </select>
                    </div>
                  </div>
                ))}
              </fieldset>
            </>
          ) : null}
          {step.kind === "mailing" || step.kind === "true-bill-mailing" ? (
            <>
              <Field
                label="Mailing date"
                name="mailingDate"
                type="date"
                required
                defaultValue={values.mailingDate}
                errors={errors.mailingDate}
              />
              <Field
                label="Tracking number"
                name="trackingNumber"
                required
                defaultValue={values.trackingNumber}
                errors={errors.trackingNumber}
              />
            </>
          ) : null}
          {step.kind === "proof" || step.kind === "true-bill-proof" ? (
            <div className="field">
              <div className="checkbox">
                <input
                  id="delivered"
                  type="checkbox"
                  name="delivered"
                  aria-invalid={errors.delivered ? true : undefined}
                />
                <label htmlFor="delivered">The proof of delivery has arrived</label>
              </div>
              {errors.delivered ? <p className="field-error">{errors.delivered.join(" ")}</p> : null}
            </div>
          ) : null}
          {step.kind === "setup-billing" ? (
            <DailyAmountField value={values.dailyAmount ?? data.prefill.dailyAmount} errors={errors.dailyAmount} />
          ) : null}
          {step.kind === "true-bill" ? (
            <>
              <Field
                label="Preparation date"
                name="preparationDate"
                type="date"
                required
                defaultValue={values.preparationDate}
                errors={errors.preparationDate}
              />
              <Field
                label="Administrative judgment (USD)"
                name="administrativeJudgment"
                inputMode="decimal"
                required
                defaultValue={values.administrativeJudgment}
                errors={errors.administrativeJudgment}
              />
              {data.priorJudgment ? (
                <p className="muted">
                  An escalation fee of 20% of the prior judgment (${((data.priorJudgment * 0.2) / 100).toFixed(2)}) is
                  added.
                </p>
              ) : null}
              <BillRespondents lines={data.billLines} />
            </>
          ) : null}
          <div className="actions">
            <SubmitButton pendingText="Saving…">Save {step.label}</SubmitButton>
          </div>
        </Form>
      )}
    </section>
  );
}

export default function Nol() {
  const data = useLoaderData<typeof loader>();
  if (data.view === "causes") return <Causes data={data} />;
  if (data.view === "versions") return <Versions data={data} />;
  return <StepForm data={data} />;
}
