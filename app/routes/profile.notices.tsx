import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { NoticesPage } from "~/components/members/notices-page";
import { reminderChoicesSchema } from "~/lib/schemas.server";
import { readForm } from "~/lib/submission.server";
import { redirectWithFlash } from "~/services/flash.server";
import { reminderChoiceList, saveReminderChoices } from "~/services/nol/reminders.server";
import { memberTimelines } from "~/services/nol/version-timelines.server";
import { noticesOverview } from "~/services/profile.server";
import { ownCorrections } from "~/services/respondents.server";
import { requireMember } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Notices and documents" }];

/**
 * /profile/notices (spec §2.2): the member's notices by cause and version with their documents,
 * their corrections, each version's timeline, and the reminders they get. A route of its own,
 * so that the account page (/profile) does not load its code.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  return json({
    causes: await noticesOverview(services, viewer),
    corrections: await ownCorrections(services, viewer),
    reminders: await reminderChoiceList(services.db, viewer.member.id),
    timelines: {
      versions: await memberTimelines(services, viewer.member.id, viewer.member.username),
      trackingUrl: services.config.trackingUrl,
    },
  });
}

/** POST /profile/notices: the reminders the member gets by e-mail. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const form = await readForm(request);
  const parsed = reminderChoicesSchema.safeParse({ intent: form.get("intent"), kinds: form.getAll("kinds") });
  if (!parsed.success) return json({ error: "Choose among the reminders listed" }, { status: 400 });
  await saveReminderChoices(services.db, viewer.member.id, parsed.data.kinds);
  return redirectWithFlash(
    "/profile/notices",
    { kind: "success", message: "Your reminders are saved." },
    services.config,
  );
}

export default function ProfileNotices() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return <NoticesPage {...data} remindersError={reply?.error ?? null} />;
}
