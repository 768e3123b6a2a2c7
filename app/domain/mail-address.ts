/**
 * What an e-mail address may be: RFC 5321's shape with RFC 6531's internationalised addresses
 * (SMTPUTF8), which mail providers deliver and members' exports hold (`ömil@gmail.com`), and
 * internationalised domain names. Quoted local parts and address literals (`[192.0.2.1]`),
 * which no member types and few providers take, are not addresses here.
 */

/** atext (RFC 5322) and, since RFC 6531, any letter, mark or digit beyond ASCII. */
const LOCAL_PART =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~\p{L}\p{M}\p{N}-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~\p{L}\p{M}\p{N}-]+)*$/u;
/** A domain label: letters, marks and digits of any script (an IDN) or punycode, hyphens inside. */
const LABEL = /^[\p{L}\p{M}\p{N}](?:[\p{L}\p{M}\p{N}-]*[\p{L}\p{M}\p{N}])?$/u;

const utf8Length = (text: string) => new TextEncoder().encode(text).length;

export function isMailAddress(text: string): boolean {
  const at = text.lastIndexOf("@");
  if (at <= 0 || at === text.length - 1) return false;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  if (utf8Length(local) > 64 || utf8Length(domain) > 253 || !LOCAL_PART.test(local)) return false;
  const labels = domain.split(".");
  if (labels.length < 2 || !labels.every((label) => utf8Length(label) <= 63 && LABEL.test(label))) return false;
  // A top-level domain is never all digits: that is an IP address's last part.
  return !/^\d+$/.test(labels.at(-1)!);
}

/** An address as it is kept: Unicode in one normal form (NFC), in lower case. */
export function normalMailAddress(text: string): string {
  return text.normalize("NFC").toLowerCase();
}
