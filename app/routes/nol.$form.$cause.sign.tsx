import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { lastResultOf } from "~/components/forms/fields";
import { SignPage } from "~/components/nol/sign-page";
import { withPageErrors } from "~/lib/http.server";
import { signFormSchema } from "~/lib/schemas.server";
import { parseSubmission, replyWith, withFormErrors } from "~/lib/submission.server";
import { signPage, signRound } from "~/services/documents/sign-round.server";
import { redirectWithFlash } from "~/services/flash.server";
import { nolAddress } from "~/services/nol/page-address.server";
import { requireMember } from "~/services/session.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Sign the notice" }];

const inputOf = (request: Request, cause: string | undefined) => {
  const search = new URL(request.url).searchParams;
  return { cause: cause ?? "", version: search.get("version"), round: search.get("round") };
};

/** /nol/{form}/{cause}/sign?version=&round=: the member signs the round's notice, typed or drawn, after consenting. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const { address } = nolAddress(request, params);
  const page = await withPageErrors(() => signPage(services, viewer, address, inputOf(request, params.cause)));
  return json(page, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const { address } = nolAddress(request, params);
  const { submission } = await parseSubmission(request, signFormSchema);
  if (submission.status !== "success") return replyWith(submission);
  return withFormErrors(submission, async () => {
    const { back } = await signRound(
      services,
      viewer,
      address,
      { ...inputOf(request, params.cause), ...submission.value },
      { ip: viewer.clientIp ?? null, userAgent: request.headers.get("user-agent") },
    );
    const message = submission.value.onDownload
      ? "Signed. Your signature goes on each letter mailed for you and on the PDF you download."
      : "Signed. Your signature goes on each letter mailed for you; the PDF you download keeps a line to sign by hand.";
    return redirectWithFlash(back, { kind: "success", message }, services.config);
  });
}

export default function SignTheNotice() {
  return <SignPage data={useLoaderData<typeof loader>()} lastResult={lastResultOf(useActionData<typeof action>())} />;
}
