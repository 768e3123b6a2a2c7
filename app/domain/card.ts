import { z } from "zod";

/** What a member types into a card form. */
export const cardSchema = z.object({
  cardNumber: z
    .string({ required_error: "Enter the card number" })
    .transform((v) => v.replace(/[\s-]/g, ""))
    .pipe(z.string().regex(/^\d{12,19}$/, "Enter the card number: 12 to 19 digits")),
  expiry: z
    .string({ required_error: "Enter the expiry date" })
    .trim()
    .regex(/^(0[1-9]|1[0-2])\s*\/\s*(\d{2})$/, "Enter the expiry date as MM/YY"),
  cvc: z
    .string({ required_error: "Enter the security code" })
    .trim()
    .regex(/^\d{3,4}$/, "Enter the 3 or 4 digit security code"),
});
export type CardInput = z.infer<typeof cardSchema>;

/** True when the card's MM/YY has not passed at `now`. */
export function cardNotExpired(expiry: string, now: Date): boolean {
  const match = /^(\d{2})\s*\/\s*(\d{2})$/.exec(expiry.trim());
  if (!match) return false;
  const month = Number(match[1]);
  const year = 2000 + Number(match[2]);
  return year > now.getUTCFullYear() || (year === now.getUTCFullYear() && month >= now.getUTCMonth() + 1);
}
