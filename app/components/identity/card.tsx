import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { FormErrors, formProps, Honeypot, type FormMeta } from "~/components/forms/inputs";

/** The one-card page of the identity pages (login, sign-up, setup…): a heading and what follows. */
export function Card({
  id,
  title,
  lead,
  children,
  before,
  note,
}: {
  id: string;
  title: string;
  lead?: ReactNode;
  children?: ReactNode;
  /** Shown above the heading (the setup steps). */
  before?: ReactNode;
  /** Shown under the heading and the lead, before the rest (an offer with forms of its own). */
  note?: ReactNode;
}) {
  return (
    <section className="card" aria-labelledby={id}>
      {before}
      <h1 id={id}>{title}</h1>
      {lead ? <p className="lead">{lead}</p> : null}
      {note}
      {children}
    </section>
  );
}

/**
 * A card holding one form posted to its own page: the form's errors above it, its
 * fields, and the submit button; `after` follows the form (links elsewhere).
 */
export function FormCard({
  form,
  submit,
  after,
  honeypot = false,
  children,
  ...card
}: {
  id: string;
  title: string;
  lead?: ReactNode;
  before?: ReactNode;
  note?: ReactNode;
  form: FormMeta;
  submit: ReactNode;
  after?: ReactNode;
  /** Forms a visitor can send get the field robots fill. */
  honeypot?: boolean;
  children: ReactNode;
}) {
  return (
    <Card {...card}>
      <PostedForm form={form} submit={submit} honeypot={honeypot}>
        {children}
      </PostedForm>
      {after}
    </Card>
  );
}

/** One form posted to its own page: the form's errors above it, its fields, and its buttons. */
export function PostedForm({
  form,
  submit,
  honeypot = false,
  children,
}: {
  form: FormMeta;
  submit: ReactNode;
  /** Forms a visitor can send get the field robots fill. */
  honeypot?: boolean;
  children: ReactNode;
}) {
  return (
    <>
      <FormErrors form={form} />
      <Form method="post" className="form" {...formProps(form)}>
        {children}
        {honeypot ? <Honeypot /> : null}
        <div className="actions">{submit}</div>
      </Form>
    </>
  );
}
