import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { userIdSchema } from "~/lib/schemas.server";
import { formatDate } from "~/lib/format";
import { notFoundPage, withPageErrors } from "~/lib/http.server";
import { memberCard } from "~/services/member-card.server";
import { requireMember } from "~/services/session.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? data.username : "Member" }];

/**
 * /user/{user_id?} (spec §2.2): a member's card for other members; an admin gets the member's
 * whole record; one's own id (or none) is one's profile.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  if (!params.userId || params.userId === viewer.member.id) throw redirect("/profile");
  const id = userIdSchema.safeParse(params.userId);
  if (!id.success) notFoundPage();
  if (viewer.user.admin) throw redirect(`/members/${id.data}`);
  return withPageErrors(async () => json(await memberCard(services, id.data)));
}

export default function MemberCard() {
  const card = useLoaderData<typeof loader>();
  return (
    <section className="card" aria-labelledby="card-title">
      <h1 id="card-title">{card.username}</h1>
      <dl className="facts">
        <dt>Member since</dt>
        <dd>{formatDate(card.memberSince)}</dd>
        <dt>Group</dt>
        <dd>{card.group ?? "None"}</dd>
      </dl>
      <p>
        <Link to="/">Back to the community home</Link>
      </p>
    </section>
  );
}
