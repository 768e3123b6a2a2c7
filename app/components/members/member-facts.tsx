import { Link } from "@remix-run/react";
import { FactTable } from "~/components/ui/fact-table";
import { contactFacts } from "./contact-facts";
import { countryName, membershipLine, type MembershipState } from "~/domain/words";
import { formatDate } from "~/lib/format";

type Member = {
  email: string;
  name: string | null;
  country: string | null;
  subStatus: string | null;
  expiration: string | null;
};

/** A member's own profile facts: e-mail (with a link to confirm it), name, country and membership. */
export function ProfileFacts({
  member,
}: {
  member: Member & { verified: boolean; showRejoin: boolean; membership: MembershipState | null };
}) {
  return (
    <FactTable
      facts={[
        ...contactFacts(
          member,
          member.verified ? "(confirmed)" : <Link to="/signup/check-email">(confirm it)</Link>,
          member.country ? countryName(member.country) : null,
        ),
        [
          "Membership",
          <>
            {membershipLine(member.membership, formatDate)} · <Link to="/profile/billing">Billing and payments</Link>
            {member.showRejoin ? (
              <>
                {" "}
                · <Link to="/re-join">Re-join</Link>
              </>
            ) : null}
          </>,
        ],
      ]}
    />
  );
}
