import type { AppServices } from "~/context";
import type { PageAddress } from "~/services/nol/pages.server";
import { signRound } from "~/services/documents/sign-round.server";
import type { Viewer } from "~/services/session.server";

/** The creator's pages, whose address a round is signed from. */
export const CREATOR_PAGES: PageAddress = { segment: "creator", form: "NoLCreator2" };

/** Where the tests' requests come from: a documentation address and a browser of their own. */
export const SIGNED_FROM = { ip: "203.0.113.9", userAgent: "memberhall-tests/1.0" };

/**
 * The member signs a written round's notice with their typed name, as the sign page does
 * (round 1 of Traffic Stop unless told otherwise): the record the letters and payments need.
 */
export async function signRoundAs(
  services: AppServices,
  viewer: Viewer,
  version: string,
  options: { round?: number; cause?: string; name?: string; onDownload?: boolean } = {},
) {
  const { signature } = await signRound(
    services,
    viewer,
    CREATOR_PAGES,
    {
      cause: options.cause ?? "traffic-stop",
      version,
      round: options.round ?? 1,
      method: "typed",
      name: options.name ?? viewer.member.name ?? viewer.member.username,
      imagePng: null,
      onDownload: options.onDownload ?? true,
    },
    SIGNED_FROM,
  );
  return signature;
}
