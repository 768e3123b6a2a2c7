import { z } from "zod";
import { emailSchema, passwordSchema } from "./account";

/** The forms of /profile/{page?}: each names its intent, so one action tells them apart. */

export const PROFILE_PAGES = ["account", "security", "notices", "billing"] as const;
export type ProfilePage = (typeof PROFILE_PAGES)[number];

export const nameFormSchema = z.object({
  intent: z.literal("name"),
  name: z.string().trim().max(120, "Use at most 120 characters").optional(),
});

export const emailFormSchema = z.object({ intent: z.literal("email"), email: emailSchema });

export const passwordFormSchema = z
  .object({
    intent: z.literal("password"),
    current: z.string({ required_error: "Enter your current password" }).min(1, "Enter your current password"),
    password: passwordSchema,
    confirm: z.string({ required_error: "Type the new password again" }),
  })
  .refine((v) => v.password === v.confirm, { path: ["confirm"], message: "The two passwords differ" });

/** A session is named on the page by a code made from its id, never by the id (the cookie's value). */
export const sessionFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("end-session"), session: z.string().regex(/^[0-9a-f]{16}$/, "Not a session") }),
  z.object({ intent: z.literal("end-other-sessions") }),
]);

/** "Chrome on Linux" from a browser's User-Agent, or what can be told of it. */
export function deviceOf(userAgent: string | null): string {
  if (!userAgent) return "An unknown device";
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
      ? "Firefox"
      : /Chrome\//.test(userAgent)
        ? "Chrome"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : null;
  const system = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad/.test(userAgent)
      ? "iOS"
      : /Windows/.test(userAgent)
        ? "Windows"
        : /Mac OS X/.test(userAgent)
          ? "macOS"
          : /Linux/.test(userAgent)
            ? "Linux"
            : null;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? userAgent.slice(0, 60);
}
