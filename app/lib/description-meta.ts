import type { MetaDescriptor } from "@remix-run/node";

/**
 * The community's description for a public page's own `meta`: a route that has a `meta`
 * replaces the root's, so the pages search engines show name it again.
 */
export function descriptionMeta(matches: { id: string; data: unknown }[]): MetaDescriptor[] {
  const root = matches.find((match) => match.id === "root")?.data as
    { community?: { description?: string } } | undefined;
  const content = root?.community?.description;
  return content ? [{ name: "description", content }] : [];
}
