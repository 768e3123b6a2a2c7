import type { ActionFunctionArgs } from "@remix-run/node";
import { UPDATED_MESSAGE } from "~/domain/documents/notarize-flow";
import { formBase } from "~/domain/nol/addresses";
import { isDomainError } from "~/domain/errors";
import { proofNotarizeFormSchema } from "~/lib/schemas.server";
import { readForm } from "~/lib/submission.server";
import { redirectWithFlash } from "~/services/flash.server";
import { nolAddress } from "~/services/nol/page-address.server";
import { deleteNotarization, nzIdParam, refreshNotarization } from "~/services/notary/notarize.server";
import { notarizeProofOfService } from "~/services/notary/proof-notarize.server";
import { requireMember } from "~/services/session.server";

const SENT = "The proof of service is sent to the notary. Open the signing page to meet the notary and sign.";

/**
 * POST /nol/{form}/{cause}/proof-of-service/notarize: the timeline's forms for a round's proof
 * of service (send it to the notary, read its status, delete it). Each goes back to the
 * version's page with what happened, with or without JavaScript.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const { address } = nolAddress(request, params);
  const causeBase = `${formBase(address.segment)}/${encodeURIComponent(params.cause ?? "")}`;
  const parsed = proofNotarizeFormSchema.safeParse(Object.fromEntries((await readForm(request)) ?? []));
  const back = (version?: string) => (version ? `${causeBase}?${new URLSearchParams({ version })}` : causeBase);
  if (!parsed.success) {
    const message = "That action could not be read; reload the page and try again.";
    return redirectWithFlash(back(), { kind: "error", message }, services.config);
  }
  const input = parsed.data;
  const to = back(input.version);
  try {
    if (input.intent === "create") {
      const { error } = await notarizeProofOfService(services, viewer, address, {
        cause: params.cause ?? "",
        version: input.version,
        round: input.round,
      });
      return redirectWithFlash(
        to,
        error ? { kind: "error", message: error } : { kind: "success", message: SENT },
        services.config,
      );
    }
    const nzId = nzIdParam(input.nz_id);
    if (input.intent === "delete") {
      await deleteNotarization(services, viewer, nzId);
      return redirectWithFlash(to, { kind: "success", message: "The notarization was deleted." }, services.config);
    }
    const { error } = await refreshNotarization(services, viewer, nzId);
    return redirectWithFlash(
      to,
      error ? { kind: "warn", message: error } : { kind: "success", message: UPDATED_MESSAGE },
      services.config,
    );
  } catch (error) {
    if (isDomainError(error)) return redirectWithFlash(to, { kind: "error", message: error.message }, services.config);
    throw error;
  }
}
