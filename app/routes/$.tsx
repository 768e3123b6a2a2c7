import { json } from "@remix-run/node";

/**
 * Any path no other route takes. Matching it lets the root loader run, so the 404 page
 * ('This page could not be found', spec §2.3) wears the whole shell and the guard applies.
 */
export function loader() {
  throw json("This page could not be found", { status: 404 });
}

export function action() {
  throw json("This page could not be found", { status: 404 });
}

export default function NotFound() {
  return null;
}
