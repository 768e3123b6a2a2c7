import { randomUUID } from "node:crypto";
import { desc, eq } from "drizzle-orm";
import type { AppServices } from "~/context";
import { checkouts, mailingOrders } from "~/db/schema";
import { conflict, forbidden, notFound, unavailable } from "~/domain/errors";
import { postalLines, postalParts, type PostalAddress } from "~/domain/mailing/address";
import {
  blocker,
  chosen,
  partsFromForm,
  readAddress,
  orderableSlots,
  startingRecipients,
  verdictWords,
  type OrderRecipient,
} from "~/domain/mailing/order";
import { quoteMailing, quoteWords } from "~/domain/mailing/quote";
import { signedLine, signPageHref } from "~/domain/documents/signature";
import { versionSchema } from "~/domain/nol/entries";
import { NOTICE_ROUNDS } from "~/domain/nol/rounds";
import { roundName } from "~/domain/nol/timeline";
import { formatMoney } from "~/lib/format";
import { isProviderError } from "~/providers/errors";
import { checkoutPagePath } from "../billing/pages.server";
import { latestSignature } from "../documents/signatures.server";
import { waitingRespondents } from "~/domain/nol/service";
import { respondentsOf, versionState, type VersionState } from "../nol/entries.server";
import { addressedIn, roundServiceOf, serviceEntry } from "../nol/service.server";
import { causeOf, type PageAddress } from "../nol/pages.server";
import { roundDocumentBases } from "../nol/timeline.server";
import type { Viewer } from "../session.server";
import { runSandboxMailHouse } from "./events.server";
import type { OrderRow } from "./order-jobs.server";
import { mailingSettings, senderOf, type MailingSettings } from "./settings.server";
import { versionLetters } from "./view.server";
import { ofVersion } from "../version-keys.server";

/**
 * "Mail it for me" (/nol/{form}/{cause}/mail?version=): the round's letters addressed, checked
 * with the mail house, confirmed, paid through the checkout, then followed letter by letter.
 * Every form posts back to the page, which shows where the order stands.
 */

export const MAIL_HOUSE_DOWN =
  "The mail house cannot be reached just now: nothing was sent or charged. Try again in a few minutes.";

type Input = { cause: string; version: unknown };

const MAILING_STEPS = new Set(["mailing", "true-bill-mailing"]);
const PROOF_STEPS = new Set(["proof", "true-bill-proof"]);

/**
 * The member's own version, the round it mails now (or mailed last from the app), its order as
 * it stands, and who may be ordered for now: the round's respondents at its mailing step, or
 * those still waiting to be served, in a new order after the ones before (domain/mailing/order.ts).
 */
export async function placeOf(services: AppServices, viewer: Viewer, address: PageAddress, input: Input) {
  const place = await causeOf(services, viewer, address, input.cause);
  if (place.other) throw forbidden("Only the member can mail their notice from the app.");
  const version = versionSchema.safeParse(input.version);
  if (!version.success) throw notFound("Choose a version to mail");
  const state = versionState(place.rows, version.data);
  if (!state.creator) throw notFound("This version has no notice yet");
  const { step } = state;
  const atService = MAILING_STEPS.has(step.kind) || PROOF_STEPS.has(step.kind);
  const [last] = await services.db
    .select()
    .from(mailingOrders)
    .where(ofVersion(mailingOrders, place.owner.id, place.cause.code, version.data))
    .orderBy(desc(mailingOrders.round), desc(mailingOrders.sequence))
    .limit(1);
  const round = atService && step.round ? step.round : (last?.round ?? null);
  const lastOfRound = last && last.round === round ? last : null;
  const entry = round ? serviceEntry(state, round) : null;
  // One reading of the round's service: whom it is addressed to, and who of them still waits.
  const service =
    atService && round && round === step.round && entry
      ? await roundServiceOf(services.db, { creator: state.creator, entry, round })
      : null;
  const orderable = service
    ? orderableSlots({
        step: MAILING_STEPS.has(step.kind) ? "mailing" : "proof",
        lastOrder: lastOfRound?.status ?? null,
        named: service.respondents.map((r) => r.slot),
        waiting: waitingRespondents(service).map((r) => r.slot),
      })
    : null;
  // Mailing again after the round's orders went out starts an order of its own.
  const order = orderable?.again && lastOfRound?.status !== "draft" ? null : lastOfRound;
  return {
    place,
    state,
    version: version.data,
    round,
    mailing: orderable !== null,
    again: Boolean(orderable?.again) || (order?.sequence ?? 1) > 1 || PROOF_STEPS.has(step.kind),
    slots: orderable?.slots ?? [],
    sequence: order ? order.sequence : (lastOfRound?.sequence ?? 0) + 1,
    order,
  };
}

/** The round's entry: the notice's for a notice, the true bill's own for a bill. */
function roundEntryId(state: VersionState, round: number): string | null {
  if (round <= NOTICE_ROUNDS) return state.creator?.id ?? null;
  return state.bills.find((bill) => bill.tbValue === round - NOTICE_ROUNDS)?.id ?? null;
}

/** The respondents the round is addressed to, with what the notice has of their addresses. */
async function roundRespondents(services: AppServices, state: VersionState, round: number) {
  const named = await respondentsOf(services.db, [state.creator!.id]);
  const entry = serviceEntry(state, round);
  const addressed = new Set(entry ? addressedIn(named, entry, round).map((r) => r.slot) : []);
  return named.filter((r) => addressed.has(r.slot));
}

/** The respondents the order may mail, as they start. */
async function startingFor(services: AppServices, state: VersionState, round: number, slots: readonly number[]) {
  return startingRecipients((await roundRespondents(services, state, round)).filter((r) => slots.includes(r.slot)));
}

/** The member's own return address as the notice has it (the claimant's), read into its parts. */
function ownSender(state: VersionState, viewer: Viewer) {
  const data = (state.creator?.data ?? {}) as { claimantName?: unknown; claimantAddress?: unknown };
  const name =
    (typeof data.claimantName === "string" && data.claimantName.trim()) || viewer.member.name || viewer.member.username;
  return postalParts(name, typeof data.claimantAddress === "string" ? data.claimantAddress : null).parts;
}

export const recipientsOf = (order: OrderRow | null) => (order?.recipients ?? []) as OrderRecipient[];

/** The page: the order as it stands, and the letters it made. */
export async function mailPage(services: AppServices, viewer: Viewer, address: PageAddress, input: Input) {
  // The sandbox mail house moves its letters as far as its clock says when they are looked at,
  // as its minute's job would.
  if (services.providers.mailhouseSandbox) await runSandboxMailHouse(services);
  const { place, state, version, round, mailing, again, slots, order } = await placeOf(
    services,
    viewer,
    address,
    input,
  );
  const settings = await mailingSettings(services);
  const versionHref = `${place.causeBase}?${new URLSearchParams({ version })}`;
  const entryId = round ? roundEntryId(state, round) : null;
  const signature = round && entryId ? await latestSignature(services.db, entryId, round) : null;
  const base = {
    title: "Mail it for me",
    causeName: place.cause.name,
    trackingUrl: services.config.trackingUrl,
    version,
    versionHref,
    round,
    roundName: round ? roundName(round) : null,
    noticeHref: round ? `${roundDocumentBases(place.causeBase, version, null).notice}&round=${round}` : null,
    // What is mailed is signed first: the sign page, and who signed when.
    sign: round
      ? {
          href: signPageHref(place.causeBase, version, round),
          signed: signature ? signedLine({ name: signature.signerName, signedAt: signature.createdAt }) : null,
        }
      : null,
  };
  if (!round) return { ...base, stage: "closed" as const, next: state.step.label };
  const [checkout] = order?.checkoutId
    ? await services.db.select().from(checkouts).where(eq(checkouts.id, order.checkoutId))
    : [];
  const stage =
    order && order.status !== "draft"
      ? order.status === "paying" && checkout?.status === "succeeded"
        ? ("paid" as const)
        : order.status
      : mailing
        ? ("draft" as const)
        : ("closed" as const);
  const recipients =
    order && recipientsOf(order).length > 0
      ? recipientsOf(order)
      : mailing && round
        ? await startingFor(services, state, round, slots)
        : [];
  const fixedSender = settings.returnAddress
    ? postalLines(senderOf(settings, viewer.member.name ?? viewer.member.username, null)!)
    : null;
  const senderParts = (order?.fromAddress as PostalAddress | null) ?? ownSender(state, viewer);
  const list = chosen(recipients);
  const ready = list.length > 0 && list.every((r) => blocker(r) === null) && (fixedSender || order?.fromAddress);
  const quote =
    list.length > 0
      ? quoteMailing(
          settings.prices,
          list.map((r) => r.respondent),
        )
      : null;
  return {
    ...base,
    stage,
    again,
    next: state.step.label,
    sender: { fixed: fixedSender, parts: senderParts as Record<string, string | undefined> },
    recipients: recipients.map((r) => ({
      ...r,
      blocker: r.send ? blocker(r) : null,
      verdictText: r.verdict ? verdictWords(r.verdict) : null,
      suggestion: r.verdict?.corrected && r.verdict.standardized ? postalLines(r.verdict.standardized) : null,
      typedLines: r.verdict ? postalLines(r.verdict.checked) : null,
    })),
    ready: Boolean(ready),
    quote: quote
      ? {
          words: quoteWords(quote),
          each: formatMoney(quote.perEnvelopeCents, "usd"),
          total: formatMoney(quote.totalCents, "usd"),
          free: quote.totalCents === 0,
          lines: quote.lines.map((line) => ({ recipient: line.recipient, service: line.service })),
        }
      : null,
    attempt: randomUUID(),
    payHref: stage === "paying" && checkout && checkout.status !== "failed" ? checkoutPagePath(checkout) : null,
    paymentFailed: stage === "paying" && checkout?.status === "failed" ? checkout.failureMessage : null,
    letters: (await versionLetters(services, place.owner, { causeCode: place.cause.code, version, round })).map(
      (letter) => ({
        ...letter,
        cost: formatMoney(letter.costCents, "usd"),
        cancelUntil: letter.cancelUntil?.toISOString() ?? null,
      }),
    ),
  };
}

/** Reads the addresses form, asks the mail house about each address chosen, and keeps the draft. */
export async function checkAddresses(
  services: AppServices,
  viewer: Viewer,
  address: PageAddress,
  input: Input & { form: FormData },
): Promise<{ ok: boolean; from: { parts: Record<string, string | undefined>; errors: Record<string, string> } }> {
  const { place, state, version, round, mailing, slots, sequence, order } = await placeOf(
    services,
    viewer,
    address,
    input,
  );
  if (order && order.status !== "draft") throw conflict("These letters are paid for already.");
  if (!round || !mailing) throw conflict(`The next step of this version is ${state.step.label}.`);
  const settings = await mailingSettings(services);
  const form = input.form;
  const known =
    order && recipientsOf(order).length > 0 ? recipientsOf(order) : await startingFor(services, state, round, slots);
  const fromParts = partsFromForm(form, "from");
  const from = settings.returnAddress ? null : readAddress(fromParts);
  const recipients: OrderRecipient[] = [];
  for (const known1 of known) {
    const parts = partsFromForm(form, `to.${known1.slot}`);
    const send = form.get(`send.${known1.slot}`) === "on";
    const read = readAddress(parts);
    let verdict = known1.verdict;
    if (send && read.address && !(verdict && sameChecked(verdict.checked, read.address))) {
      verdict = { ...(await verify(services, read.address)), checked: read.address };
    }
    recipients.push({
      ...known1,
      send,
      parts,
      errors: send ? read.errors : {},
      verdict: read.address ? verdict : null,
    });
  }
  const fromAddress = settings.returnAddress
    ? senderOf(settings, viewer.member.name ?? viewer.member.username, null)
    : from!.address;
  // A return address that cannot be read is kept out of the draft: the form shows it again with its errors.
  await saveDraft(
    services,
    place.owner.id,
    { entryId: roundEntryId(state, round)!, causeCode: place.cause.code, version, round, sequence },
    {
      fromAddress,
      recipients,
      settings,
    },
  );
  const fromErrors = from?.errors ?? {};
  return {
    ok: Object.keys(fromErrors).length === 0 && chosen(recipients).every((r) => blocker(r) === null),
    from: { parts: fromParts, errors: fromErrors },
  };
}

const sameChecked = (a: PostalAddress, b: PostalAddress) => JSON.stringify(a) === JSON.stringify(b);

async function verify(services: AppServices, address: PostalAddress) {
  try {
    const { deliverability, standardized, corrected } = await services.providers.mailhouse.verifyAddress(address);
    return { deliverability, standardized, corrected };
  } catch (error) {
    if (isProviderError(error, "provider_unavailable")) throw unavailable(MAIL_HOUSE_DOWN);
    if (isProviderError(error, "mail_refused"))
      return { deliverability: "undeliverable" as const, standardized: null, corrected: false };
    throw error;
  }
}

type Key = { entryId: string; causeCode: string; version: string; round: number; sequence: number };

async function saveDraft(
  services: AppServices,
  userId: string,
  key: Key,
  draft: { fromAddress: PostalAddress | null; recipients: OrderRecipient[]; settings: MailingSettings },
) {
  const perEnvelopeCents = draft.settings.prices.perEnvelopeCents;
  const values = {
    fromAddress: draft.fromAddress,
    recipients: draft.recipients,
    perEnvelopeCents,
    totalCents: perEnvelopeCents * chosen(draft.recipients).length,
  };
  await services.db
    .insert(mailingOrders)
    .values({
      userId,
      entryId: key.entryId,
      causeCode: key.causeCode,
      descriptiveVersion: key.version,
      round: key.round,
      sequence: key.sequence,
      ...values,
    })
    .onConflictDoUpdate({
      target: [mailingOrders.entryId, mailingOrders.round, mailingOrders.sequence],
      set: values,
      setWhere: eq(mailingOrders.status, "draft"),
    });
}
