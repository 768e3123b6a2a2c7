/**
 * Which pages another site may frame (spec §1 "embeddable mode"). Only the configured
 * learning site may frame them; every other page refuses all framing.
 */
const FRAMEABLE_PREFIXES = ["/embed/", "/lrm"];

export function isFrameablePath(pathname: string): boolean {
  return FRAMEABLE_PREFIXES.some((prefix) =>
    prefix.endsWith("/") ? pathname.startsWith(prefix) : pathname === prefix || pathname.startsWith(`${prefix}/`),
  );
}

/** The CSP frame-ancestors value for a path. */
export function frameAncestors(pathname: string, learningSiteUrl: string | undefined): string {
  if (!learningSiteUrl || !isFrameablePath(pathname)) return "'none'";
  return new URL(learningSiteUrl).origin;
}
