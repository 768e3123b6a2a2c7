import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { MemberDetail, MemberList } from "~/components/admin/members";
import { invalid } from "~/domain/errors";
import { notFoundPage, withPageErrors } from "~/lib/http.server";
import { endMemberSessions, findMembers, memberDetail } from "~/services/members.server";
import { requireAdmin } from "~/services/session.server";
import { redirectWithFlash } from "~/services/flash.server";

export const handle = { layout: "container" };

export const meta: MetaFunction = () => [{ title: "Members" }];

const querySchema = z.object({
  q: z.string().trim().max(100).catch(""),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});

/** A member's id in the path; anything else names no member. */
function memberId(params: { userId?: string }): string {
  const id = z.string().uuid().safeParse(params.userId);
  return id.success ? id.data : notFoundPage();
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { services } = await requireAdmin(request, context);
  if (params.userId) {
    const detail = await withPageErrors(() => memberDetail(services.db, memberId(params)));
    return json({ view: "detail" as const, detail, list: null, q: "", page: 1 });
  }
  const { q, page } = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  return json({ view: "list" as const, detail: null, list: await findMembers(services.db, q, page), q, page });
}

/** POST /members/{id} with intent end-sessions: an admin signs the member out everywhere. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  const member = await withPageErrors(async () => {
    const found = await memberDetail(services.db, memberId(params));
    const form = await request.formData().catch(() => null);
    if (form?.get("intent") !== "end-sessions") throw invalid("Unknown action");
    await endMemberSessions(services.db, viewer, found.id);
    return found;
  });
  return redirectWithFlash(
    `/members/${member.id}`,
    { kind: "success", message: `${member.username} is signed out everywhere.` },
    services.config,
  );
}

export default function Members() {
  const data = useLoaderData<typeof loader>();
  if (data.detail) return <MemberDetail member={data.detail} />;
  return <MemberList list={data.list} q={data.q} page={data.page} />;
}
