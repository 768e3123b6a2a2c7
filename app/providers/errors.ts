/**
 * What an outside service's failure means, as a stable code the services read. A code is a
 * plain field: it survives what an error class does not (a second copy of a module, a
 * worker thread, a job's stored failure), so no failure of a provider ever reaches a member
 * as a 500 for want of being recognised.
 */
export const PROVIDER_ERROR_CODES = [
  /** The payer's card or coupon was refused: the member should read the message. */
  "payment_declined",
  /** The provider cannot be reached, failed (5xx), rate-limits us or did not answer in time: nothing was done. */
  "provider_unavailable",
  /** The notary refused the request (4xx); the message is its own. */
  "notary_refused",
  /** The mail house refused the request (4xx: an address it will not mail to, a letter past cancelling); the message is its own. */
  "mail_refused",
  /** The backup store refused the request (4xx: a key it does not accept, a bucket it does not have); the message is its own. */
  "store_refused",
  /** A webhook delivery whose signature does not check out, or that the provider cannot have sent. */
  "invalid_signature",
  /** A correctly signed delivery the app cannot read: kept for admins and acknowledged, as a resend would not read better. */
  "unreadable_event",
] as const;

export type ProviderErrorCode = (typeof PROVIDER_ERROR_CODES)[number];

export type ProviderArea = "payments" | "notary" | "mailhouse" | "backup-store";

const AREAS: ReadonlySet<string> = new Set<ProviderArea>(["payments", "notary", "mailhouse", "backup-store"]);

export class ProviderError extends Error {
  readonly code: ProviderErrorCode;
  readonly provider: ProviderArea;

  constructor(provider: ProviderArea, code: ProviderErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.provider = provider;
    this.code = code;
  }
}

/**
 * The base of a provider's failure that carries its message alone, named `errorName` (an
 * Error's name stays "Error" unless it is set).
 */
export function providerFailure(provider: ProviderArea, code: ProviderErrorCode, errorName: string) {
  return class extends ProviderError {
    override name = errorName;
    constructor(message: string, options?: ErrorOptions) {
      super(provider, code, message, options);
    }
  };
}

/** The base of a provider's refusal of a request (4xx): its HTTP `status`, and its own code where it gives one. */
export function providerRefusal(provider: ProviderArea, code: ProviderErrorCode, errorName: string) {
  return class extends ProviderError {
    override name = errorName;
    constructor(
      message: string,
      readonly status: number,
      readonly providerCode: string | null = null,
      options?: ErrorOptions,
    ) {
      super(provider, code, message, options);
    }
  };
}

const CODES: ReadonlySet<string> = new Set(PROVIDER_ERROR_CODES);

/** The code of a provider's failure, read from its fields alone; null for any other error. */
export function providerErrorCode(error: unknown): ProviderErrorCode | null {
  if (typeof error !== "object" || error === null) return null;
  const { code, provider } = error as { code?: unknown; provider?: unknown };
  if (typeof provider !== "string" || !AREAS.has(provider)) return null;
  return typeof code === "string" && CODES.has(code) ? (code as ProviderErrorCode) : null;
}

/** Whether the error is a provider's failure with this code. */
export const isProviderError = (
  error: unknown,
  code: ProviderErrorCode,
): error is ProviderError & { message: string } => providerErrorCode(error) === code;
