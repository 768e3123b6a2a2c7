import { createCookie, type Cookie } from "@remix-run/node";
import type { AppConfig } from "~/config/config.server";

/** How long a session lasts from its login. */
export const SESSION_DAYS = 30;

type SiteCookies = {
  session: Cookie;
  flash: Cookie;
  afterLogin: Cookie;
  sso: Cookie;
  coupon: Cookie;
  couponDismissed: Cookie;
  /** The plan a visitor chose before signing up, taken to payment once setup reaches it. */
  plan: Cookie;
  nolSelected: Cookie;
  /** A visitor's own checkouts (a donation before signing up), so only they see them. */
  checkouts: Cookie;
  /** A sign-in whose password passed and whose second factor is asked for (factors/sign-in.server.ts). */
  pendingLogin: Cookie;
  /** A browser's remembered-device secret (factors/sign-in.server.ts), for REMEMBER_DEVICE_DAYS. */
  rememberedDevice: Cookie;
};
const cookieCache = new WeakMap<AppConfig, SiteCookies>();

/**
 * The site's cookies: HttpOnly, SameSite=Lax, and Secure with the __Host- prefix in production.
 * A site served over HTTPS (its BASE_URL) marks them Secure on any NODE_ENV, the demo behind a
 * TLS proxy too: a browser then never sends one over plain HTTP.
 */
export function siteCookies(config: AppConfig): SiteCookies {
  let cached = cookieCache.get(config);
  if (!cached) {
    const prefix = config.isProduction ? "__Host-" : "";
    const secure = config.isProduction || new URL(config.baseUrl).protocol === "https:";
    const make = (name: string, maxAge: number) =>
      createCookie(`${prefix}${name}`, {
        httpOnly: true,
        sameSite: "lax",
        secure,
        path: "/",
        secrets: [config.sessionSecret],
        maxAge,
      });
    cached = {
      session: make("mh_session", SESSION_DAYS * 86_400),
      flash: make("mh_flash", 60),
      afterLogin: make("mh_after_login", 3_600),
      sso: make("mh_sso", 600),
      coupon: make("mh_coupon", 30 * 86_400),
      couponDismissed: make("mh_coupon_dismissed", 30 * 86_400),
      plan: make("mh_plan", 7 * 86_400),
      /** The NoL entry selected last, for the auto-select mode "back". */
      nolSelected: make("mh_nol_selected", 30 * 86_400),
      checkouts: make("mh_checkouts", 7 * 86_400),
      pendingLogin: make("mh_factor", 600),
      rememberedDevice: make("mh_device", 30 * 86_400),
    };
    cookieCache.set(config, cached);
  }
  return cached;
}
