import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { RespondentServicePage } from "~/components/nol/respondent-service";
import { isDomainError, STATUS_OF } from "~/domain/errors";
import { withPageErrors } from "~/lib/http.server";
import { readForm } from "~/lib/submission.server";
import { redirectWithFlash } from "~/services/flash.server";
import { recordRespondentService, respondentServicePage } from "~/services/nol/respondent-service.server";
import { nolAddress } from "~/services/nol/page-address.server";
import { requireMember } from "~/services/session.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "A respondent's service" }];

const inputOf = (request: Request, cause: string | undefined) => {
  const search = new URL(request.url).searchParams;
  return { cause: cause ?? "", version: search.get("version"), round: search.get("round"), slot: search.get("slot") };
};

/** /nol/{form}/{cause}/service?version=&round=&slot=: one respondent of a round, and what is left to record of them. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const { address } = nolAddress(request, params);
  const page = await withPageErrors(() =>
    respondentServicePage(services, viewer, address, inputOf(request, params.cause)),
  );
  return json(page, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const { address } = nolAddress(request, params);
  const form = (await readForm(request)) ?? new FormData();
  try {
    const done = await recordRespondentService(services, viewer, address, { ...inputOf(request, params.cause), form });
    return redirectWithFlash(done.back, { kind: "success", message: done.message }, services.config);
  } catch (error) {
    if (isDomainError(error) && (error.kind === "invalid" || error.kind === "conflict"))
      return json(
        {
          error: error.message,
          intent: String(form.get("intent") ?? ""),
          fieldErrors: error.kind === "invalid" ? (error.fieldErrors ?? {}) : {},
          values: Object.fromEntries([...form].map(([k, v]) => [k, String(v)])),
        },
        STATUS_OF[error.kind],
      );
    return withPageErrors(() => Promise.reject(error));
  }
}

export default function RespondentService() {
  return <RespondentServicePage data={useLoaderData<typeof loader>()} result={useActionData<typeof action>()} />;
}
