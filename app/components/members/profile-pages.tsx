import type { SubmissionResult } from "@conform-to/react";
import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { Field, useSchemaForm, type FormMeta } from "~/components/forms/fields";
import { PostedForm } from "~/components/identity/card";
import { ProfileFacts } from "~/components/members/member-facts";
import { SubmitButton } from "~/components/ui/submit-button";
import type { profileOf } from "~/services/members.server";
import { DataArchiveSection, type DataArchive } from "./data-archive";
import { ProfileCard } from "./profile-card";

export { ProfileNav } from "./profile-card";

export type FormReplyOf = { intent: string; result: SubmissionResult<string[]> } | null;

/** The answer of the form that was sent, for that form only. */
const replyFor = (reply: FormReplyOf, intent: string) => (reply?.intent === intent ? reply.result : undefined);

/** One of the profile's forms: posted with its intent, which names the answer it gets back. */
function ProfileForm({
  form,
  intent,
  pendingText,
  label,
  children,
}: {
  form: FormMeta;
  intent: string;
  pendingText: string;
  label: string;
  children: ReactNode;
}) {
  return (
    <PostedForm
      form={form}
      submit={
        <SubmitButton name="intent" value={intent} pendingText={pendingText}>
          {label}
        </SubmitButton>
      }
    >
      {children}
    </PostedForm>
  );
}

/**
 * /profile: the member's facts; their name, e-mail address and password, each changed by its own
 * form; the download of their data; the deletion of their account.
 */
export function AccountPage({
  profile,
  reply,
  archive,
}: {
  profile: SerializeFrom<typeof profileOf>;
  reply: FormReplyOf;
  archive: DataArchive;
}) {
  const [nameForm, nameFields] = useSchemaForm(() => import("~/domain/profile").then((m) => m.nameFormSchema), {
    id: "name-form",
    lastResult: replyFor(reply, "name"),
    defaultValue: { name: profile.name ?? "" },
  });
  const [emailForm, emailFields] = useSchemaForm(() => import("~/domain/profile").then((m) => m.emailFormSchema), {
    id: "email-form",
    lastResult: replyFor(reply, "email"),
  });
  const [passwordForm, passwordFields] = useSchemaForm(
    () => import("~/domain/profile").then((m) => m.passwordFormSchema),
    {
      id: "password-form",
      lastResult: replyFor(reply, "password"),
    },
  );
  return (
    <ProfileCard page="account" title={profile.username}>
      <ProfileFacts member={profile} />
      <h2>Your name</h2>
      <ProfileForm form={nameForm} intent="name" pendingText="Saving…" label="Save the name">
        <Field meta={nameFields.name} label="Name" autoComplete="name" hint="Shown to you and the admins only." />
      </ProfileForm>
      <h2>Your e-mail address</h2>
      <ProfileForm form={emailForm} intent="email" pendingText="Sending…" label="Send the confirmation link">
        <Field
          meta={emailFields.email}
          label="New e-mail address"
          type="email"
          autoComplete="email"
          hint={`It stays ${profile.email} until you open the link we send to the new address.`}
        />
      </ProfileForm>
      <h2>Your password</h2>
      <ProfileForm form={passwordForm} intent="password" pendingText="Saving…" label="Change the password">
        <Field meta={passwordFields.current} label="Current password" type="password" autoComplete="current-password" />
        <Field meta={passwordFields.password} label="New password" type="password" autoComplete="new-password" />
        <Field meta={passwordFields.confirm} label="New password again" type="password" autoComplete="new-password" />
      </ProfileForm>
      <DataArchiveSection archive={archive} />
      <section aria-labelledby="delete-account-title">
        <h2 id="delete-account-title">Delete my account</h2>
        <p>
          <Link to="/profile/delete">Delete my account</Link>: your membership ends, you are logged out, and your data
          is erased after a grace period in which you can change your mind.
        </p>
      </section>
    </ProfileCard>
  );
}
