import type { LoaderFunctionArgs } from "@remix-run/node";
import { isPublicPath } from "~/domain/guard";
import { notFoundPage } from "~/lib/http.server";
import { requireMember } from "~/services/session.server";

/**
 * Any path no other route takes. Matching it lets the root loader run, so the 404 page
 * (spec §2.3) wears the whole shell and the guard applies; a data request runs only this
 * loader, so it applies the guard itself.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!isPublicPath(new URL(request.url).pathname)) await requireMember(request, context);
  return notFoundPage();
}

export const action = () => notFoundPage();

export default function NotFound() {
  return null;
}
