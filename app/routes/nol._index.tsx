import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireMember } from "~/services/session.server";

/** /nol: the notice creator is the default form. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireMember(request, context);
  return redirect("/nol/creator");
}
