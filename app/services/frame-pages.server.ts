import type { AppLoadContext } from "@remix-run/node";
import { json } from "@remix-run/node";
import { appServices } from "./app.server";

/**
 * The loader of the pages the learning site frames (/lrm, /lrm/header, /lrm/iframe): they
 * sign in in the browser, so all they need from the server is where to send people.
 */
export async function framePageLoader(context: AppLoadContext) {
  const { config } = await appServices(context);
  return json({ supportEmail: config.supportEmail, baseUrl: config.baseUrl });
}
