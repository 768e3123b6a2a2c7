import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { conflict, invalid, notFound, type FieldErrors } from "~/domain/errors";
import { versionSchema } from "~/domain/nol/entries";
import { serviceAddressSchema, serviceFormSchema, type ServiceIntent } from "~/domain/nol/service-form";
import { statusWords, type RespondentService } from "~/domain/nol/service";
import { dayOf, roundName } from "~/domain/nol/timeline";
import { formatDate } from "~/lib/format";
import { audit, actorOf } from "../audit.server";
import { lockVersion, recordRound } from "../mailings/records.server";
import type { Viewer } from "../session.server";
import { entriesOf, versionState } from "./entries.server";
import { causeOf, versionStepHref, type PageAddress } from "./pages.server";
import { addServiceRecords, noticeDayOf, roundServiceOf, serviceEntry } from "./service.server";

/**
 * /nol/{form}/{cause}/service?version=&round=&slot=: one respondent of a round, and what the
 * member records of them by hand (docs/decisions/057-one-reading-of-service.md).
 */

type Input = { cause: string; version: unknown; round: unknown; slot: unknown };

/** What may be recorded of a respondent now: mailing again or leaving out (nothing on its way); delivery or return (mailed by hand). */
function intentsOf(r: RespondentService): ServiceIntent[] {
  if (r.waiting) return ["mailed", "left_out"];
  if (r.status === "mailed" && r.current?.by === "hand") return ["delivered", "returned"];
  return [];
}

async function respondentOf(services: AppServices, viewer: Viewer, address: PageAddress, input: Input) {
  const place = await causeOf(services, viewer, address, input.cause);
  const version = versionSchema.safeParse(input.version);
  const at = serviceAddressSchema.safeParse({ round: input.round, slot: input.slot });
  if (!version.success || !at.success) throw notFound("No such respondent in this round");
  const rows = await entriesOf(services.db, place.owner.id, place.cause.code);
  const state = versionState(rows, version.data);
  const entry = serviceEntry(state, at.data.round);
  if (!entry) throw notFound("This round has not been written yet");
  const service = await roundServiceOf(services.db, { creator: state.creator, entry, round: at.data.round });
  const respondent = service.respondents.find((r) => r.slot === at.data.slot);
  if (!respondent) throw notFound("No such respondent in this round");
  const roundState = { ...state, step: { ...state.step, round: at.data.round } };
  const noticeOn = await noticeDayOf(services.db, place.owner.id, roundState);
  return { place, version: version.data, round: at.data.round, state, entry, service, respondent, noticeOn };
}

export async function respondentServicePage(services: AppServices, viewer: Viewer, address: PageAddress, input: Input) {
  const found = await respondentOf(services, viewer, address, input);
  const { place, respondent: r, round, version } = found;
  return {
    title: `${r.name} · ${roundName(round)}`,
    causeName: place.cause.name,
    version,
    round,
    roundName: roundName(round),
    versionHref: versionStepHref(place, version, found.state.step.kind),
    respondent: {
      slot: r.slot,
      name: r.name,
      address: r.address,
      words: statusWords(r, formatDate),
      by: r.current?.by ?? null,
      tracking: r.current?.tracking ?? null,
      earlier: r.earlier.map((s) => ({
        by: s.by,
        mailedShown: s.mailedOn ? formatDate(s.mailedOn) : null,
        tracking: s.tracking,
        status: s.status,
      })),
    },
    intents: intentsOf(r),
    // A respondent still to serve can be mailed again from the app, by the member, while the round is being served.
    mailAgainHref:
      r.waiting && !place.other && found.state.step.round === round
        ? `${place.causeBase}/mail?${new URLSearchParams({ version })}`
        : null,
    today: dayOf(new Date()),
    noticeOn: found.noticeOn,
    mailedOn: r.current?.mailedOn ?? null,
  };
}

const WORDS: Record<ServiceIntent, (name: string) => string> = {
  mailed: (name) => `The notice to ${name} is recorded as mailed.`,
  delivered: (name) => `The delivery to ${name} is recorded.`,
  returned: (name) => `The return of the envelope to ${name} is recorded: mail it again or leave them out.`,
  left_out: (name) => `${name} is left out of this round.`,
};

/** Records one intent for the respondent; the round's fields follow from the reading. */
export async function recordRespondentService(
  services: AppServices,
  viewer: Viewer,
  address: PageAddress,
  input: Input & { form: FormData },
): Promise<{ message: string; back: string }> {
  const found = await respondentOf(services, viewer, address, input);
  const { respondent: r } = found;
  const schema = serviceFormSchema({
    today: dayOf(new Date()),
    noticeOn: found.noticeOn,
    mailedOn: r.current?.mailedOn ?? null,
  });
  const parsed = schema.safeParse(Object.fromEntries(input.form));
  if (!parsed.success) {
    const fieldErrors: FieldErrors = {};
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? "intent");
      (fieldErrors[name] ??= []).push(issue.message);
    }
    throw invalid("Check the fields below", fieldErrors);
  }
  const form = parsed.data;
  if (!intentsOf(r).includes(form.intent))
    throw conflict(`${r.name}: ${statusWords(r, formatDate)}. Nothing of that kind can be recorded now.`);
  const { owner } = found.place;
  const key = { userId: owner.id, causeCode: found.place.cause.code, descriptiveVersion: found.version };
  await services.db.transaction(async (tx) => {
    await lockVersion(tx, key);
    const db = tx as unknown as Database;
    // Read again under the lock: another tab or a letter's event may have moved the respondent on.
    const again = await roundServiceOf(db, { creator: found.state.creator, entry: found.entry, round: found.round });
    const now = again.respondents.find((x) => x.slot === r.slot);
    if (!now || !intentsOf(now).includes(form.intent)) throw conflict(`${r.name} moved on meanwhile: reload the page.`);
    await addServiceRecords(
      db,
      {
        userId: owner.id,
        creator: found.state.creator,
        entry: found.entry,
        round: found.round,
        recordedBy: viewer.agent?.id ?? viewer.user.id,
      },
      [
        {
          slot: r.slot,
          kind: form.intent,
          day: "day" in form ? form.day : null,
          trackingNumber: "tracking" in form ? form.tracking : null,
          reason: "reason" in form ? form.reason : null,
        },
      ],
    );
    await recordRound(tx, { ...key, entryId: found.entry.id, round: found.round });
  });
  await audit(services.db, actorOf(viewer), `nol.service.${form.intent}`, "nol_entry", found.entry.id, {
    version: found.version,
    round: found.round,
    slot: r.slot,
    respondent: r.name,
  });
  const rows = await entriesOf(services.db, owner.id, found.place.cause.code);
  return {
    message: WORDS[form.intent](r.name),
    back: versionStepHref(found.place, found.version, versionState(rows, found.version).step.kind),
  };
}
