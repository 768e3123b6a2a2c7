import type { SubmissionResult } from "@conform-to/react";
import type { SerializeFrom } from "@remix-run/node";
import { Field, useSchemaForm } from "~/components/forms/fields";
import { PostedForm } from "~/components/identity/card";
import { SubmitButton } from "~/components/ui/submit-button";
import type { communityLinks } from "~/services/community-links.server";

type Links = SerializeFrom<Awaited<ReturnType<typeof communityLinks>>>;

/** /admin/settings' first part: the community's invite link and each cause's community space. */
export function CommunityLinksForm({
  links,
  lastResult,
}: {
  links: Links;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useSchemaForm(() => import("~/domain/community-links").then((m) => m.communityLinksSchema), {
    lastResult,
    defaultValue: { mnInviteLink: links.mnInviteLink ?? "", mightyLinks: links.mightyLinks },
  });
  const spaces = fields.mightyLinks.getFieldset();
  return (
    <section aria-labelledby="community-links-title">
      <h2 id="community-links-title">Community links</h2>
      <p>
        Where members are invited to join the community, and the community space of each cause, as members&apos; apps
        show them. Leave a field empty to leave its link out.
      </p>
      <PostedForm form={form} submit={<SubmitButton pendingText="Saving…">Save the links</SubmitButton>}>
        <input type="hidden" name="intent" value="save-links" />
        <Field
          meta={fields.mnInviteLink}
          label="Invite link"
          type="url"
          hint="Where a member is invited to join the community."
        />
        <fieldset>
          <legend>Community space of each cause</legend>
          {links.causes.map((cause) => (
            <Field key={cause.code} meta={spaces[cause.code]!} label={`${cause.name} (${cause.code})`} type="url" />
          ))}
        </fieldset>
      </PostedForm>
      <details>
        <summary>For the server&apos;s operator: where apps read these links</summary>
        <p>
          Members&apos; apps read the links with the cause catalogue, from <code>/api/config/causes</code>; a change
          shows there at once.
        </p>
      </details>
    </section>
  );
}
