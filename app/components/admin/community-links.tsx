import type { SubmissionResult } from "@conform-to/react";
import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { Field, useSchemaForm } from "~/components/forms/fields";
import { FormCard } from "~/components/identity/card";
import { SubmitButton } from "~/components/ui/submit-button";
import type { communityLinks } from "~/services/community-links.server";

type Links = SerializeFrom<Awaited<ReturnType<typeof communityLinks>>>;

/** /admin/settings: the community's invite link and each cause's community space. */
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
    <FormCard
      id="settings-title"
      title="Community links"
      lead={
        <>
          The links members' apps read with the cause catalogue (<code>/api/config/causes</code>). Leave a field empty
          to leave its link out.
        </>
      }
      form={form}
      submit={<SubmitButton pendingText="Saving…">Save the links</SubmitButton>}
      after={
        <p className="muted">
          <Link to="/admin">Back to Admin</Link>
        </p>
      }
    >
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
    </FormCard>
  );
}
