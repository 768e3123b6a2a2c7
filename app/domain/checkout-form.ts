import { z } from "zod";
import { isMailAddress } from "./mail-address";

/**
 * The pay forms. A form carries its attempt id (made when the page is served): a second
 * submit of the same form is the same checkout, so a double click is one charge.
 */

const attempt = z.string({ required_error: "Reload the page and try again" }).uuid("Reload the page and try again");

/** What to pay for: a plan, with a donation's amount. */
export const checkoutChoiceSchema = z.object({
  attempt,
  planId: z.string({ required_error: "Choose a membership" }).trim().min(1, "Choose a membership").max(64),
  amount: z
    .string()
    .trim()
    .max(20)
    .regex(/^\$?(\d{1,3}(,\d{3})+|\d{1,9})(\.\d{1,2})?$/, "Enter an amount such as 25 or 25.00")
    .optional(),
});

/** /subscription's form: the choice, an offer code, and a visitor's e-mail for a donation or credit. */
export const checkoutFormSchema = checkoutChoiceSchema.extend({
  coupon: z
    .string()
    .trim()
    .max(64)
    .regex(/^[\w-]*$/, "Enter the offer code as it was given: letters, digits and -")
    .optional(),
  email: z
    .string()
    .trim()
    .max(254)
    .refine(isMailAddress, "Enter an e-mail address such as name@example.org")
    .optional(),
  /** The notarize page a credit is bought from, to go back to once paid. */
  returnTo: z.string().trim().max(500).optional(),
});

/** The sandbox's card form, labelled as Stripe's Payment Element labels its fields. */
export const sandboxCardSchema = z.object({
  cardNumber: z
    .string({ required_error: "Enter the card number" })
    .regex(/^[\d\s-]{12,25}$/, "Enter the card number: 12 to 19 digits")
    .transform((v) => v.replace(/[\s-]/g, ""))
    .refine((v) => v.length >= 12 && v.length <= 19, "Enter the card number: 12 to 19 digits"),
  expiry: z
    .string({ required_error: "Enter the expiration date" })
    .trim()
    .regex(/^(0[1-9]|1[0-2])\s*\/\s*(\d{2})$/, "Enter the expiration date as MM / YY"),
  cvc: z
    .string({ required_error: "Enter the security code" })
    .trim()
    .regex(/^\d{3,4}$/, "Enter the 3 or 4 digit security code"),
});

/** The sandbox's 3-D Secure page: the member completes or fails the step. */
export const authenticationSchema = z.object({ intent: z.enum(["complete", "fail"]) });

/** The card page and return page name their checkout in the query. */
export const checkoutQuerySchema = z.object({ checkout: z.string().uuid() });
