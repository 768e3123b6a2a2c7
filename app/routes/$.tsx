import { notFoundPage } from "~/lib/http.server";

/**
 * Any path no other route takes. Matching it lets the root loader run, so the 404 page
 * (spec §2.3) wears the whole shell and the guard applies.
 */
export const loader = () => notFoundPage();

export const action = () => notFoundPage();

export default function NotFound() {
  return null;
}
