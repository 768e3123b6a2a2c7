import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { lastResultOf } from "~/components/forms/fields";
import { ReassessmentForm } from "~/components/respondents/forms";
import { chosenRespondentSchema, reassessmentSchema } from "~/lib/schemas.server";
import { parseSubmission, replyWith, withFormErrors } from "~/lib/submission.server";
import { redirectWithFlash } from "~/services/flash.server";
import { requestReassessment, searchDirectory } from "~/services/respondents.server";
import { requireMember } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Respondent reassessment" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { services } = await requireMember(request, context);
  const chosen = chosenRespondentSchema.parse(new URL(request.url).searchParams.get("respondent"));
  const respondents = (await searchDirectory(services, {})).map((r) => ({ id: r.id, name: r.name, place: r.place }));
  return json({ respondents, chosen });
}

/** Form 134: waits for an admin. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const { submission } = await parseSubmission(request, reassessmentSchema);
  if (submission.status !== "success") return replyWith(submission);
  return withFormErrors(submission, async () => {
    const { entryNumber } = await requestReassessment(services, viewer, submission.value);
    return redirectWithFlash(
      "/respondents",
      { kind: "success", message: `Thank you: request #${entryNumber} waits for an admin's review.` },
      services.config,
    );
  });
}

export default function RespondentReassessment() {
  const { respondents, chosen } = useLoaderData<typeof loader>();
  return (
    <ReassessmentForm
      lastResult={lastResultOf(useActionData<typeof action>())}
      respondents={respondents}
      chosen={chosen}
    />
  );
}
