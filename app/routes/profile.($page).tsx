import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { lastResultOf } from "~/components/forms/fields";
import { AccountPage, type FormReplyOf } from "~/components/members/profile-pages";
import { dataArchiveFormSchema, emailFormSchema, nameFormSchema, passwordFormSchema } from "~/lib/schemas.server";
import { isDomainError } from "~/domain/errors";
import { notFoundPage } from "~/lib/http.server";
import { readForm, replyWith, submissionOf, withFormErrors } from "~/lib/submission.server";
import { archiveSection, requestArchive } from "~/services/member-data/archive.server";
import { profileOf } from "~/services/members.server";
import { changeName, changePassword, requestEmailChange } from "~/services/profile.server";
import { requireMember } from "~/services/session.server";
import { redirectWithFlash } from "~/services/flash.server";

export const meta: MetaFunction = () => [{ title: "Profile" }];

/**
 * /profile (spec §2.2): the member's account. Its other pages are routes of their own
 * (profile.notices, profile.billing._index, profile.security._index); any other
 * /profile/{page} is not found.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  if (params.page) notFoundPage();
  const { viewer, services } = await requireMember(request, context);
  return json(
    {
      profile: profileOf(viewer),
      archive: await archiveSection(services, viewer),
    },
    // The archive's progress is read again while it is made.
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  if (params.page) notFoundPage();
  const { viewer, services } = await requireMember(request, context);
  const form = await readForm(request);
  const here = "/profile";
  const done = (message: string) => redirectWithFlash(here, { kind: "success", message }, services.config);
  const intent = form.get("intent");
  if (dataArchiveFormSchema.safeParse({ intent }).success) {
    try {
      await requestArchive(services, viewer);
    } catch (error) {
      if (!isDomainError(error) || error.status >= 500) throw error;
      return redirectWithFlash(here, { kind: "error", message: error.message }, services.config);
    }
    return done("Your archive is being made: we e-mail you a link when it is ready.");
  }
  const schema =
    intent === "name"
      ? nameFormSchema
      : intent === "email"
        ? emailFormSchema
        : intent === "password"
          ? passwordFormSchema
          : null;
  if (!schema) return json({ intent: String(intent ?? ""), result: null, error: "Unknown action" }, { status: 400 });
  const submission = submissionOf(form, schema);
  const reply = (response: Response) => withIntent(response, String(intent));
  if (submission.status !== "success") return reply(replyWith(submission));
  return withFormErrors(submission, async () => {
    const value = submission.value;
    if (value.intent === "name") {
      await changeName(services, viewer, value.name);
      return done("Your name is saved.");
    }
    if (value.intent === "email") {
      await requestEmailChange(services, viewer, value.email);
      return done(`We sent a link to ${value.email}. Your address changes when you open it.`);
    }
    await changePassword(services, viewer, value);
    return done("Your password is changed. Your other sessions are logged out.");
  }).then(reply);
}

/** A form's answer, named by the form's intent so that only that form shows it. */
async function withIntent(response: Response, intent: string): Promise<Response> {
  if (response.status < 400 || !response.headers.get("content-type")?.includes("json")) return response;
  const body = (await response.json()) as Record<string, unknown>;
  return json({ ...body, intent }, { status: response.status, headers: response.headers });
}

export default function Profile() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const lastResult = lastResultOf(reply);
  const formReply: FormReplyOf =
    reply && "intent" in reply && lastResult ? { intent: String(reply.intent), result: lastResult } : null;
  return <AccountPage profile={data.profile} reply={formReply} archive={data.archive} />;
}
