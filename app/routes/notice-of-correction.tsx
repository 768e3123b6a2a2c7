import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { lastResultOf } from "~/components/forms/fields";
import { CorrectionForm } from "~/components/respondents/forms";
import { chosenNotice, correctionQuerySchema, correctionSchema } from "~/lib/schemas.server";
import { parseSubmission, replyWith, withFormErrors } from "~/lib/submission.server";
import { redirectWithFlash } from "~/services/flash.server";
import { correctableNotices, fileCorrection } from "~/services/respondents.server";
import { requireMember } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Notice of correction" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const params = new URL(request.url).searchParams;
  const query = correctionQuerySchema.parse({
    notice: params.get("notice"),
    cause: params.get("cause"),
    version: params.get("version"),
  });
  const notices = await correctableNotices(services, viewer);
  return json({ notices: notices.map((n) => ({ id: n.id, label: n.label })), chosen: chosenNotice(notices, query) });
}

/** Form 218: a correction of one of the member's own notices. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const { submission } = await parseSubmission(request, correctionSchema);
  if (submission.status !== "success") return replyWith(submission);
  return withFormErrors(submission, async () => {
    const { entryNumber, notice } = await fileCorrection(services, viewer, submission.value);
    return redirectWithFlash(
      "/profile/notices",
      { kind: "success", message: `Correction #${entryNumber} of ${notice} is filed.` },
      services.config,
    );
  });
}

export default function NoticeOfCorrection() {
  const { notices, chosen } = useLoaderData<typeof loader>();
  return <CorrectionForm lastResult={lastResultOf(useActionData<typeof action>())} notices={notices} chosen={chosen} />;
}
