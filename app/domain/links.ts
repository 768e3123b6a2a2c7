/**
 * Entry links (a hosted form's EditLink and ViewLink) come from outside: only an https:
 * address or a path of this site may become an `href`. `javascript:`, `data:` and the like
 * would run in the member's page.
 */

// Browsers drop tabs and newlines inside an address and spaces around it ("java\tscript:"
// is `javascript:`), and read "\" as "/" ("/\host" leaves the site): none is allowed.
function hasUnsafeCharacter(value: string): boolean {
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (code <= 0x20 || code === 0x7f || char === "\\" || /\s/.test(char)) return true;
  }
  return false;
}

/** An absolute https: address, written out as one ("https://host/…"). */
export function isHttpsUrl(value: string): boolean {
  if (hasUnsafeCharacter(value) || !/^https:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname !== "";
  } catch {
    return false;
  }
}

/** A path of this site: one "/" first, never "//" (another host). */
function isOwnPath(value: string): boolean {
  return value.startsWith("/") && !value.startsWith("//") && !hasUnsafeCharacter(value);
}

/** The value when it is safe as a link's `href`, else null (render no link). */
export function safeLinkHref(value: string | null | undefined): string | null {
  if (typeof value !== "string" || value === "") return null;
  return isOwnPath(value) || isHttpsUrl(value) ? value : null;
}

/** A text cut into its plain parts and the web addresses in it, for a page that shows them as links. */
export type TextPart = { text: string } | { href: string };

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"']+/g;

export function textWithLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    // A sentence's last full stop or comma is not part of the address.
    const href = match[0].replace(/[.,;:!?)]+$/, "");
    const start = match.index;
    if (start > last) parts.push({ text: text.slice(last, start) });
    parts.push({ href });
    last = start + href.length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
