import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { LegalDocumentView } from "~/components/legal-document";
import { termsOfService } from "~/content/legal";
import { communityFor } from "~/domain/community";
import { appServices } from "~/services/app.server";

export const meta: MetaFunction = () => [{ title: "Terms of Service" }];

export async function loader({ context }: LoaderFunctionArgs) {
  const { config } = await appServices(context);
  return json({ document: termsOfService(communityFor(config.community).name) });
}

export default function SignupDocument() {
  const { document } = useLoaderData<typeof loader>();
  return (
    <>
      <LegalDocumentView document={document} />
      <p className="card-footer-link">
        <Link to="/signup">Back to sign-up</Link>
      </p>
    </>
  );
}
