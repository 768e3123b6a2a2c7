import { randomBytes } from "node:crypto";

/** A new entry link hash: more than 30 characters ending in "*", like the hosted forms' (spec §9). */
export function newFormHash(): string {
  return `${randomBytes(24).toString("base64url")}*`;
}
