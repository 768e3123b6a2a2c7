import type { AppLoadContext } from "@remix-run/node";
import { json } from "@remix-run/node";
import { communityFor } from "~/domain/community";
import { appServices } from "./app.server";
import { renderContent, type ContentPage } from "./content.server";

/**
 * The loader of a content page: its HTML and title, and where its "back" link leads
 * (the sign-up copies of the documents lead back to sign-up).
 */
export async function contentPageLoader(context: AppLoadContext, page: ContentPage, backTo: string | null = null) {
  const { config } = await appServices(context);
  const { html, title } = await renderContent(config.contentDir, page, communityFor(config.community).name);
  return json({ html, title, backTo }, { headers: { "Cache-Control": "no-cache" } });
}
