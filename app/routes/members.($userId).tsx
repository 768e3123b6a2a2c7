import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirectDocument } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { MemberList } from "~/components/admin/member-list";
import { MemberDetail } from "~/components/admin/members";
import { invalid } from "~/domain/errors";
import { notFoundPage, withPageErrors } from "~/lib/http.server";
import { lastResultOf } from "~/components/forms/fields";
import type { AppServices } from "~/context";
import { listSearch } from "~/domain/listing";
import { bulkActionOf, bulkDoneMessage, bulkFormSchema, memberActionSchema } from "~/domain/member-list";
import { parseSubmission, readForm, replyWith, withFormErrors } from "~/lib/submission.server";
import { bulkMemberAction } from "~/services/member-bulk.server";
import { memberList, memberListChoices, memberListQuery } from "~/services/member-listing.server";
import { endMemberSession, memberPage, setMemberFlags } from "~/services/member-page.server";
import { endMemberSessions, memberDetail, renewMemberNow } from "~/services/members.server";
import { setVersionFeatures } from "~/services/nol/features.server";
import { requireAdmin, type Viewer } from "~/services/session.server";
import { redirectWithFlash } from "~/services/flash.server";

export const handle = { layout: "container" };

export const meta: MetaFunction = () => [{ title: "Members" }];

/** A member's id in the path; anything else names no member. */
function memberId(params: { userId?: string }): string {
  const id = z.string().uuid().safeParse(params.userId);
  return id.success ? id.data : notFoundPage();
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  if (params.userId) {
    const id = memberId(params);
    const page = await withPageErrors(() => memberPage(services, viewer, id));
    return json({ view: "detail" as const, page, list: null }, { headers: { "Cache-Control": "no-store" } });
  }
  const { query, errors } = memberListQuery(new URL(request.url).searchParams);
  const [list, choices] = await Promise.all([memberList(services, query), memberListChoices(services)]);
  return json({ view: "list" as const, page: null, list: { ...list, query, errors, choices } });
}

/**
 * POST /members/{id}: an admin sets the member's flags, logs out one session or all of them, or
 * has the sandbox renew the member's membership now. Each is audited by its service.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  if (!params.userId) return bulkAction(request, viewer, services);
  const id = memberId(params);
  const { member, message } = await withPageErrors(async () => {
    const found = await memberDetail(services.db, id);
    const parsed = memberActionSchema.safeParse(Object.fromEntries(await readForm(request)));
    if (!parsed.success) throw invalid("Unknown action");
    const form = parsed.data;
    switch (form.intent) {
      case "end-sessions":
        await endMemberSessions(services.db, viewer, found.id);
        return { member: found, message: `${found.username} is signed out everywhere.` };
      case "end-session":
        await endMemberSession(services, viewer, found.id, form.session);
        return { member: found, message: `That session of ${found.username} is logged out.` };
      case "version-features":
        await setVersionFeatures(
          services,
          viewer,
          { userId: found.id, causeCode: form.cause, version: form.version },
          { AllowNotarizeOnline: form.allowNotarizeOnline === "on" },
        );
        return { member: found, message: `The features of ${form.cause} · ${form.version} are saved.` };
      case "flags":
        await setMemberFlags(services, viewer, found.id, {
          nolCreator: form.nolCreator === "on",
          nolTester: form.nolTester === "on",
        });
        return { member: found, message: `${found.username}'s flags are saved.` };
      case "renew-now": {
        const status = await renewMemberNow(services, viewer, found.id);
        return { member: found, message: `${found.username}'s membership was renewed: it is now ${status}.` };
      }
    }
  });
  return redirectWithFlash(`/members/${member.id}`, { kind: "success", message }, services.config);
}

/**
 * POST /members?{the list's filters}: a bulk action on the members ticked or on every member the
 * filter matches; the form comes back with its errors, or the list with what was done.
 */
async function bulkAction(request: Request, viewer: Viewer, services: AppServices) {
  const url = new URL(request.url);
  const { submission } = await parseSubmission(request, bulkFormSchema);
  if (submission.status !== "success") return replyWith(submission);
  const { query } = memberListQuery(url.searchParams);
  return withFormErrors(submission, async () => {
    const action = bulkActionOf(submission.value);
    // An export is the list's CSV, of the members ticked or of the whole filter: a download.
    if (action.kind === "export") {
      const ticked = action.ids === "all" ? [] : action.ids.map((id) => ["ids", id]);
      return redirectDocument(`/members/export.csv?${listSearch(query)}&${new URLSearchParams(ticked)}`);
    }
    const { reached, queued } = await bulkMemberAction(services, viewer, action, query);
    const message = queued
      ? "The e-mail is being sent to every member of the list; the jobs page shows how it goes."
      : bulkDoneMessage(action, reached);
    return redirectWithFlash(`/members?${listSearch(query)}`, { kind: "success", message }, services.config);
  });
}

export default function Members() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  if (data.page) return <MemberDetail page={data.page} />;
  return data.list ? <MemberList list={data.list} lastResult={lastResultOf(actionData)} /> : null;
}
