import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { MemberList } from "~/components/admin/member-list";
import { MemberDetail } from "~/components/admin/members";
import { MemberBilling } from "~/components/members/member-billing";
import { invalid } from "~/domain/errors";
import { notFoundPage, withPageErrors } from "~/lib/http.server";
import { lastResultOf } from "~/components/forms/fields";
import type { AppServices } from "~/context";
import { listSearch } from "~/domain/listing";
import { bulkActionOf, bulkDoneMessage, bulkFormSchema } from "~/domain/member-list";
import { parseSubmission, replyWith, withFormErrors } from "~/lib/submission.server";
import { bulkMemberAction } from "~/services/member-bulk.server";
import { memberList, memberListChoices, memberListQuery } from "~/services/member-listing.server";
import { endMemberSessions, memberBilling, memberDetail, renewMemberNow } from "~/services/members.server";
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
  const { services } = await requireAdmin(request, context);
  if (params.userId) {
    const detail = await withPageErrors(() => memberDetail(services.db, memberId(params)));
    const billing = await memberBilling(services, detail.id);
    return json({ view: "detail" as const, detail, billing, list: null });
  }
  const { query, errors } = memberListQuery(new URL(request.url).searchParams);
  const [list, choices] = await Promise.all([memberList(services, query), memberListChoices(services)]);
  return json({ view: "list" as const, detail: null, billing: null, list: { ...list, query, errors, choices } });
}

/**
 * POST /members/{id}: an admin signs the member out everywhere (intent end-sessions), or has
 * the sandbox renew the member's membership now (intent renew-now).
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  if (!params.userId) return bulkAction(request, viewer, services);
  const { member, message } = await withPageErrors(async () => {
    const found = await memberDetail(services.db, memberId(params));
    const form = await request.formData().catch(() => null);
    const intent = form?.get("intent");
    if (intent === "end-sessions") {
      await endMemberSessions(services.db, viewer, found.id);
      return { member: found, message: `${found.username} is signed out everywhere.` };
    }
    if (intent === "renew-now") {
      const status = await renewMemberNow(services, viewer, found.id);
      return { member: found, message: `${found.username}'s membership was renewed: it is now ${status}.` };
    }
    throw invalid("Unknown action");
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
  if (data.detail) {
    return (
      <>
        <MemberDetail member={data.detail} />
        {data.billing ? <MemberBilling billing={data.billing} /> : null}
      </>
    );
  }
  return data.list ? <MemberList list={data.list} lastResult={lastResultOf(actionData)} /> : null;
}
