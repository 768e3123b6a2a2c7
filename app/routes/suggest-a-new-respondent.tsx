import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { lastResultOf } from "~/components/forms/fields";
import { SuggestionForm } from "~/components/respondents/forms";
import { suggestionSchema } from "~/lib/schemas.server";
import { parseSubmission, replyWith, withFormErrors } from "~/lib/submission.server";
import { redirectWithFlash } from "~/services/flash.server";
import { suggestRespondent } from "~/services/respondents.server";
import { requireMember } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Suggest a new respondent" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireMember(request, context);
  return json({});
}

/** Form 207: waits for an admin; one the directory has already is offered instead. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const { submission } = await parseSubmission(request, suggestionSchema);
  if (submission.status !== "success") return replyWith(submission);
  return withFormErrors(submission, async () => {
    const result = await suggestRespondent(services, viewer, submission.value);
    if ("existing" in result) return json({ existing: result.existing }, { status: 409 });
    return redirectWithFlash(
      "/respondents",
      { kind: "success", message: `Thank you: suggestion #${result.entryNumber} waits for an admin's review.` },
      services.config,
    );
  });
}

export default function SuggestANewRespondent() {
  const reply = useActionData<typeof action>();
  const existing = reply && "existing" in reply ? reply.existing : null;
  return <SuggestionForm lastResult={lastResultOf(reply)} existing={existing} />;
}
