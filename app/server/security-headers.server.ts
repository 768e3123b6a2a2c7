import type { NextFunction, Request, Response } from "express";
import { contentSecurityPolicy, isDocumentPath, isFrameablePath, type PolicySettings } from "~/domain/framing";

const HSTS = "max-age=31536000; includeSubDomains";
/** What stands for the nonce in a kept policy: no character of it can be in a nonce (base64). */
const NONCE_MARK = "\u0000nonce\u0000";
const POLICIES_KEPT = 1_000;

/**
 * The security headers of every answer, set by one middleware: the same for every request
 * but the content security policy (the request's nonce, the card pages' provider, who may
 * frame the page) and X-Frame-Options. X-Frame-Options cannot name an origin: the policy's
 * frame-ancestors governs, this backs it up for old browsers on the pages never framed.
 */
export function securityHeaders(settings: PolicySettings, nonceOf: (res: Response) => string) {
  const fixed: Array<[string, string]> = [
    ["Cross-Origin-Opener-Policy", "same-origin"],
    ["Cross-Origin-Resource-Policy", "same-origin"],
    ["Origin-Agent-Cluster", "?1"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["X-Content-Type-Options", "nosniff"],
    ["X-DNS-Prefetch-Control", "off"],
    ["X-Download-Options", "noopen"],
    ["X-Permitted-Cross-Domain-Policies", "none"],
    // Browsers' old XSS filters made holes of their own: off, as the policy does the work.
    ["X-XSS-Protection", "0"],
  ];
  // A path's policy, made once and cut where its nonce goes: bounded, as paths come from outside.
  const policies = new Map<string, [string, string]>();
  const policyOf = (path: string, nonce: string) => {
    let policy = policies.get(path);
    if (!policy) {
      const whole = contentSecurityPolicy(path, NONCE_MARK, settings);
      const at = whole.indexOf(NONCE_MARK);
      policy = [whole.slice(0, at), whole.slice(at + NONCE_MARK.length)];
      if (policies.size >= POLICIES_KEPT) policies.clear();
      policies.set(path, policy);
    }
    return `${policy[0]}${nonce}${policy[1]}`;
  };
  return (req: Request, res: Response, next: NextFunction) => {
    const path = req.path || "/";
    res.setHeader("Content-Security-Policy", policyOf(path, nonceOf(res)));
    for (const [name, value] of fixed) res.setHeader(name, value);
    // A browser heeds HSTS only over HTTPS: a deployment always sends it, any other server
    // whenever the request came over HTTPS (itself, or a proxy TRUST_PROXY names).
    if (settings.production || req.secure) res.setHeader("Strict-Transport-Security", HSTS);
    if (isDocumentPath(path)) res.setHeader("X-Frame-Options", "SAMEORIGIN");
    else if (!isFrameablePath(path)) res.setHeader("X-Frame-Options", "DENY");
    next();
  };
}
