import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirectDocument } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { MemberList } from "~/components/admin/member-list";
import { lastResultOf } from "~/components/forms/fields";
import { bulkActionOf, bulkStepUp, bulkDoneMessage, bulkFormSchema, listSearch } from "~/lib/schemas.server";
import { parseSubmission, replyWith, withFormErrors } from "~/lib/submission.server";
import { redirectWithFlash } from "~/services/flash.server";
import { bulkMemberAction } from "~/services/member-bulk.server";
import { memberList, memberListChoices, memberListQuery } from "~/services/member-listing.server";
import { requireAdmin } from "~/services/session.server";
import { requireStepUp } from "~/services/factors/step-up.server";

export const handle = { layout: "container" };

export const meta: MetaFunction = () => [{ title: "Members" }];

/** /members?{filters, sort, page}: the members list (a member's page is members.$userId). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { services } = await requireAdmin(request, context);
  const { query, errors } = memberListQuery(new URL(request.url).searchParams);
  const [list, choices] = await Promise.all([memberList(services, query), memberListChoices(services)]);
  return json({ list: { ...list, query, errors, choices } });
}

/**
 * POST /members?{the list's filters}: a bulk action on the members ticked or on every member the
 * filter matches; the form comes back with its errors, or the list with what was done.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  const url = new URL(request.url);
  const { form, submission } = await parseSubmission(request, bulkFormSchema);
  if (submission.status !== "success") return replyWith(submission);
  const sensitive = bulkStepUp(submission.value.action);
  if (sensitive) await requireStepUp(services, viewer, sensitive, request, form);
  const { query } = memberListQuery(url.searchParams);
  return withFormErrors(submission, async () => {
    const action = bulkActionOf(submission.value);
    // An export is the list's CSV, of the members ticked or of the whole filter: a download.
    if (action.kind === "export") {
      const ticked = action.ids === "all" ? [] : action.ids.map((id) => ["ids", id]);
      return redirectDocument(`/members/export.csv?${listSearch(query)}&${new URLSearchParams(ticked)}`);
    }
    const { reached, queued, skipped = 0, names } = await bulkMemberAction(services, viewer, action, query);
    const left = skipped ? ` ${skipped} who ${skipped === 1 ? "pays" : "pay"} for a membership left as they are.` : "";
    const message = queued
      ? "The e-mail is being sent to every member of the list; the jobs page shows how it goes."
      : `${bulkDoneMessage(action, reached, names)}${left}`;
    return redirectWithFlash(`/members?${listSearch(query)}`, { kind: "success", message }, services.config);
  });
}

export default function Members() {
  const { list } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return <MemberList list={list} lastResult={lastResultOf(actionData)} />;
}

/** A step-up prompt in the place of the page when a sensitive action asks for a fresh second factor. */
export { StepUpBoundary as ErrorBoundary } from "~/components/factors/step-up-card";
