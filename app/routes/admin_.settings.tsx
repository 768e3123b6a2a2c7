import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { CommunityLinksForm } from "~/components/admin/community-links";
import { MailingSettingsForm, type MailingSettingsValues } from "~/components/admin/mailing-settings";
import { lastResultOf } from "~/components/forms/fields";
import { communityLinksSchema, mailingSettingsFormSchema } from "~/lib/schemas.server";
import { parseSubmission, readForm, replyWith, withFormErrors } from "~/lib/submission.server";
import { communityLinks, saveCommunityLinks } from "~/services/community-links.server";
import { redirectWithFlash } from "~/services/flash.server";
import { mailingSettings, saveMailingSettings, type MailingSettings } from "~/services/mailings/settings.server";
import { requireAdmin } from "~/services/session.server";

// admin_: its own page at /admin/settings, not a part drawn inside the /admin page.
export const handle = { layout: "container" };

export const meta: MetaFunction = () => [{ title: "Community settings" }];

/** The mailing settings as the form's fields show them. */
function mailingValues(settings: MailingSettings): MailingSettingsValues {
  const at = settings.returnAddress;
  return {
    perEnvelope: (settings.prices.perEnvelopeCents / 100).toFixed(2),
    returnLine1: at?.line1 ?? "",
    returnLine2: at?.line2 ?? "",
    returnCity: at?.city ?? "",
    returnState: at?.state ?? "",
    returnZip: at?.zip ?? "",
    lostAfterDays: String(settings.lostAfterDays),
  };
}

/** /admin/settings (admins): the community's invite link, the causes' community spaces, and mailing from the app. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { services } = await requireAdmin(request, context);
  const [links, mailing] = await Promise.all([communityLinks(services), mailingSettings(services)]);
  return json({ links, mailing: mailingValues(mailing) }, { headers: { "Cache-Control": "no-store" } });
}

/** Saves the links, or the mailing settings; bad values come back beside their fields and nothing is saved. Audited. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  if (new URL(request.url).searchParams.get("form") === "mailing") {
    const form = Object.fromEntries(await readForm(request));
    const parsed = mailingSettingsFormSchema.safeParse(form);
    if (!parsed.success) {
      const errors = Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
      const values = Object.fromEntries(Object.entries(form).map(([k, v]) => [k, typeof v === "string" ? v : ""]));
      return json({ mailing: { errors, values: values as MailingSettingsValues } }, { status: 400 });
    }
    await saveMailingSettings(services, viewer, parsed.data);
    return redirectWithFlash(
      "/admin/settings",
      { kind: "success", message: "The mailing settings are saved." },
      services.config,
    );
  }
  const { submission } = await parseSubmission(request, communityLinksSchema);
  if (submission.status !== "success") return replyWith(submission);
  return withFormErrors(submission, async () => {
    await saveCommunityLinks(services, viewer, submission.value);
    return redirectWithFlash(
      "/admin/settings",
      { kind: "success", message: "The community links are saved." },
      services.config,
    );
  });
}

export default function Settings() {
  const { links, mailing } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const mailingResult = result && "mailing" in result ? result.mailing : null;
  return (
    <section className="card" aria-labelledby="settings-title">
      <p>
        <Link to="/admin">Admin</Link>
      </p>
      <h1 id="settings-title">Community settings</h1>
      <p className="lead">
        The community&apos;s links, and how the app mails members&apos; letters: what an envelope costs them and the
        address letters come back to.
      </p>
      <CommunityLinksForm links={links} lastResult={lastResultOf(mailingResult ? undefined : result)} />
      <MailingSettingsForm values={mailingResult?.values ?? mailing} errors={mailingResult?.errors} />
    </section>
  );
}
