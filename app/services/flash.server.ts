import { redirect } from "@remix-run/node";
import { z } from "zod";
import type { AppConfig } from "~/config/config.server";
import { siteCookies } from "./site-cookies.server";

/** A one-time message carried to the next page in a short-lived cookie (a redirect's result). */
const flashSchema = z.object({ kind: z.enum(["success", "error", "warn"]), message: z.string().max(500) });
export type Flash = z.infer<typeof flashSchema>;

export async function flashHeader(config: AppConfig, flash: Flash): Promise<string> {
  return siteCookies(config).flash.serialize(flash);
}

/** Reads the flash message and the header that clears it. */
export async function readFlash(
  request: Request,
  config: AppConfig,
): Promise<{ flash: Flash | null; clear: string | null }> {
  const raw = await siteCookies(config).flash.parse(request.headers.get("cookie"));
  const parsed = flashSchema.safeParse(raw);
  if (!parsed.success) return { flash: null, clear: null };
  return { flash: parsed.data, clear: await siteCookies(config).flash.serialize("", { maxAge: 0 }) };
}

export async function redirectWithFlash(to: string, flash: Flash, config: AppConfig, headers: HeadersInit = {}) {
  const merged = new Headers(headers);
  merged.append("Set-Cookie", await flashHeader(config, flash));
  return redirect(to, { headers: merged });
}
