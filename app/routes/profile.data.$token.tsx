import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirectDocument } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ArchiveRefusalPage } from "~/components/members/data-archive";
import { archiveTokenSchema } from "~/lib/schemas.server";
import { notFoundPage } from "~/lib/http.server";
import { archiveLinkRefusal, refusalWords } from "~/services/member-data/archive-download.server";
import { requireMember } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Your data archive" }];

/**
 * GET /profile/data/{code}: the e-mailed link to a member's data archive. For the member it was
 * made for, signed in as themselves, it leads once to the file (/profile/data/download); anyone
 * else, or the member a second time, reads why there is no file and what to do. A code that is
 * none of ours is not found.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const token = archiveTokenSchema.safeParse(params.token);
  if (!token.success) notFoundPage();
  const refusal = await archiveLinkRefusal(services, viewer, token.data);
  if (refusal === undefined) notFoundPage();
  // The file is sent by a route of its own: a page cannot answer with a file.
  if (refusal === null) return redirectDocument(`/profile/data/download?${new URLSearchParams({ link: token.data })}`);
  const words = refusalWords(refusal);
  return json(words, { status: words.status, headers: { "Cache-Control": "no-store" } });
}

export default function ArchiveLink() {
  return <ArchiveRefusalPage {...useLoaderData<typeof loader>()} />;
}
