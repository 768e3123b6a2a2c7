import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { lastResultOf } from "~/components/forms/fields";
import { SearchForm } from "~/components/respondents/forms";
import { searchFormSchema } from "~/lib/schemas.server";
import { parseSubmission, replyWith, withFormErrors } from "~/lib/submission.server";
import { recordSearch } from "~/services/respondents.server";
import { requireMember } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Search for a respondent" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireMember(request, context);
  return json({});
}

/** Form 92: kept as the member's entry, then the directory answers the search. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const { submission } = await parseSubmission(request, searchFormSchema);
  if (submission.status !== "success") return replyWith(submission);
  return withFormErrors(submission, async () => {
    await recordSearch(services, viewer, submission.value);
    const query = new URLSearchParams({
      q: submission.value.q,
      ...(submission.value.place ? { place: submission.value.place } : {}),
    });
    return redirect(`/respondents?${query}`);
  });
}

export default function SearchForARespondent() {
  return <SearchForm lastResult={lastResultOf(useActionData<typeof action>())} />;
}
