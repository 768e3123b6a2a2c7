import type { MailingState } from "./round-letters";

/** A letter's state as the pages word it. */
export const MAILING_STATE_WORDS: Record<MailingState, string> = {
  sending: "Being sent",
  created: "At the mail house, not yet mailed",
  mailed: "Mailed",
  in_transit: "In transit",
  delivered: "Delivered",
  returned_to_sender: "Returned to sender",
  cancelled: "Cancelled",
  failed: "Refused by the mail house",
};
