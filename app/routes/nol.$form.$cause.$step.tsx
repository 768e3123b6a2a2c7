import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { StepPage } from "~/components/nol/step-page";
import { isDomainError } from "~/domain/errors";
import { withPageErrors } from "~/lib/http.server";
import { versionChoiceSchema } from "~/lib/schemas.server";
import { readForm, replyWithError, submissionOf } from "~/lib/submission.server";
import { nolAddress, stepParam } from "~/services/nol/page-address.server";
import { stepPage, takeStep } from "~/services/nol/step-page.server";
import { requireMember } from "~/services/session.server";
import { redirectWithFlash } from "~/services/flash.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Notice of Liability" }];

/** /nol/{form}/{cause}/{step}?version=: one step of a version (spec §4 "NoL steps"). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const { address, query } = nolAddress(request, params);
  const kind = stepParam(params);
  const result = await withPageErrors(() =>
    stepPage(services, viewer, address, {
      cause: params.cause ?? "",
      kind,
      version: query.version,
      badVersion: query.badVersion?.value,
      respondent: query.respondent,
      from: query.from,
    }),
  );
  if (result.redirectTo) throw redirect(result.redirectTo);
  return json(result.page);
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const { address, query } = nolAddress(request, params);
  const kind = stepParam(params);
  const form = await readForm(request);
  const submission = submissionOf(form, versionChoiceSchema);
  return withPageErrors(async () => {
    try {
      const taken = await takeStep(services, viewer, address, {
        cause: params.cause ?? "",
        kind,
        version: form.get("version") ?? query.version,
        form,
      });
      return redirectWithFlash(taken.to, taken.flash, services.config);
    } catch (error) {
      // The form's own errors come back to it; whose notices and which cause stay page errors.
      if (isDomainError(error) && (error.kind === "invalid" || error.kind === "conflict"))
        return replyWithError(submission, error);
      throw error;
    }
  });
}

export default function NolStep() {
  return <StepPage data={useLoaderData<typeof loader>()} lastResult={useActionData<typeof action>()?.result} />;
}
