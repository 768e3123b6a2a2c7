import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { MemberDetail, MemberList } from "~/components/admin/members";
import { MemberBilling } from "~/components/members/member-billing";
import { invalid } from "~/domain/errors";
import { notFoundPage, withPageErrors } from "~/lib/http.server";
import { endMemberSessions, findMembers, memberBilling, memberDetail, renewMemberNow } from "~/services/members.server";
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
    const billing = await memberBilling(services, detail.id);
    return json({ view: "detail" as const, detail, billing, list: null, q: "", page: 1 });
  }
  const { q, page } = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const list = await findMembers(services.db, q, page);
  return json({ view: "list" as const, detail: null, billing: null, list, q, page });
}

/**
 * POST /members/{id}: an admin signs the member out everywhere (intent end-sessions), or has
 * the sandbox renew the member's membership now (intent renew-now).
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  const { member, message } = await withPageErrors(async () => {
    const found = await memberDetail(services.db, memberId(params));
    const form = await request.formData().catch(() => null);
    const intent = form?.get("intent");
    if (intent === "end-sessions") {
      await endMemberSessions(services.db, viewer, found.id);
      return { member: found, message: `${found.username} is signed out everywhere.` };
    }
    if (intent === "renew-now") {
      const status = await renewMemberNow(services, viewer, found.id);
      return { member: found, message: `${found.username}'s membership was renewed: it is now ${status}.` };
    }
    throw invalid("Unknown action");
  });
  return redirectWithFlash(`/members/${member.id}`, { kind: "success", message }, services.config);
}

export default function Members() {
  const data = useLoaderData<typeof loader>();
  if (data.detail) {
    return (
      <>
        <MemberDetail member={data.detail} />
        {data.billing ? <MemberBilling billing={data.billing} /> : null}
      </>
    );
  }
  return <MemberList list={data.list} q={data.q} page={data.page} />;
}
