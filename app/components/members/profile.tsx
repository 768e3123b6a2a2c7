import type { SerializeFrom } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { ProfileFacts } from "~/components/members/member-facts";
import { SubmitButton } from "~/components/ui/submit-button";
import type { profileOf } from "~/services/members.server";

/** /profile: the member's facts, the way to their billing, and signing out of every other browser and device. */
export function ProfileView({ profile }: { profile: SerializeFrom<typeof profileOf> }) {
  return (
    <section className="card" aria-labelledby="profile-title">
      <h1 id="profile-title">{profile.username}</h1>
      <ProfileFacts member={profile} />
      <p>
        <Link to="/profile/billing">Your membership, card and payments</Link>
      </p>
      <Form method="post" className="actions">
        <input type="hidden" name="intent" value="end-other-sessions" />
        <SubmitButton pendingText="Logging out…">Log out other sessions</SubmitButton>
      </Form>
    </section>
  );
}
