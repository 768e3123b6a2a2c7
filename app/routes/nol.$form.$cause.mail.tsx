import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { MailPage } from "~/components/nol/mail-page";
import { isDomainError, STATUS_OF } from "~/domain/errors";
import { withPageErrors } from "~/lib/http.server";
import { mailIntentSchema } from "~/lib/schemas.server";
import { readForm } from "~/lib/submission.server";
import { redirectWithFlash } from "~/services/flash.server";
import { checkAddresses, mailPage } from "~/services/mailings/order.server";
import { cancelOrderLetter, payOrder, reopenOrder } from "~/services/mailings/order-pay.server";
import { nolAddress } from "~/services/nol/page-address.server";
import { requireMember } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Mail it for me" }];

/** /nol/{form}/{cause}/mail?version=: the round's notice mailed by Certified Mail from the app. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const { address, query } = nolAddress(request, params);
  const page = await withPageErrors(() =>
    mailPage(services, viewer, address, { cause: params.cause ?? "", version: query.version }),
  );
  return json(page, { headers: { "Cache-Control": "no-store" } });
}

/** The page's four forms; each goes back to the page (or on to the payment) with what happened. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const { address, query } = nolAddress(request, params);
  const form = (await readForm(request)) ?? new FormData();
  const url = new URL(request.url);
  const pagePath = `${url.pathname}?${new URLSearchParams({ version: query.version ?? "" })}`;
  const input = { cause: params.cause ?? "", version: query.version };
  const intent = mailIntentSchema.safeParse(Object.fromEntries(form));
  if (!intent.success)
    return json({ error: intent.error.issues[0]?.message ?? "Reload the page and try again", from: null }, 400);
  const done = (message: string, kind: "success" | "warn" = "success") =>
    redirectWithFlash(pagePath, { kind, message }, services.config);
  try {
    switch (intent.data.intent) {
      case "check": {
        const checked = await checkAddresses(services, viewer, address, { ...input, form });
        if (Object.keys(checked.from.errors).length > 0)
          return json({ error: "Correct your return address, then check again.", from: checked.from }, 400);
        return done(
          checked.ok
            ? "The addresses are checked: confirm them below, then pay."
            : "Some addresses need your attention: see below.",
          checked.ok ? "success" : "warn",
        );
      }
      case "pay": {
        const { next } = await payOrder(services, viewer, address, {
          ...input,
          form,
          attempt: intent.data.attempt,
          pagePath,
        });
        return next === pagePath ? done("Your letters are being sent.") : redirect(next);
      }
      case "change":
        await reopenOrder(services, viewer, address, input);
        return done("Change the addresses, then check and pay again.", "warn");
      case "cancel":
        return done(await cancelOrderLetter(services, viewer, intent.data.mailing));
    }
  } catch (error) {
    if (isDomainError(error) && error.kind !== "not-found" && error.kind !== "forbidden")
      return json({ error: error.message, from: null }, STATUS_OF[error.kind]);
    return withPageErrors(() => Promise.reject(error));
  }
}

export default function MailForMe() {
  return <MailPage data={useLoaderData<typeof loader>()} result={useActionData<typeof action>()} />;
}
