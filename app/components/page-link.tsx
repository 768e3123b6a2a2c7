import {
  Form,
  Link,
  useFormAction,
  useLocation,
  useResolvedPath,
  type FormProps,
  type LinkProps,
} from "@remix-run/react";
import { needsDocumentLoad } from "~/domain/framing";

/*
 * A client-side navigation keeps the response headers of the document it started in, so a
 * link or form that leads to a page served with other headers (a card page, a page the
 * learning site frames: framing.ts) loads a document instead. The shell's links and forms,
 * which every page shows, decide it here; a page's own link that always crosses says
 * `reloadDocument` itself, which keeps this rule out of that page's first-load script.
 */

/** A Link that loads a document when its page is served with other headers than this one. */
export function PageLink({ reloadDocument, ...props }: LinkProps) {
  const here = useLocation().pathname;
  const there = useResolvedPath(props.to, { relative: props.relative }).pathname;
  return <Link {...props} reloadDocument={reloadDocument || needsDocumentLoad(here, there)} />;
}

/** A Form that submits as a document when its action is served with other headers than this page. */
export function PageForm({ reloadDocument, ...props }: FormProps) {
  const here = useLocation().pathname;
  const there = useFormAction(props.action, { relative: props.relative });
  return <Form {...props} reloadDocument={reloadDocument || needsDocumentLoad(here, there)} />;
}
