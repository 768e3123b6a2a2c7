import type { z } from "zod";
import { providerErrorCode } from "./errors";

/**
 * One HTTP exchange of an adapter with its provider (Proof, Lob): the answer's status and its
 * body read as JSON (or as text when it is none), within a time limit. A time-out, a dropped
 * connection or an error the caller's `judge` throws for a status all end the exchange; what a
 * provider's error means is the adapter's.
 */
export async function exchange(
  url: string,
  init: RequestInit,
  options: {
    /** The provider's name, as errors say it. */
    provider: string;
    timeoutMs: number;
    /** The error to throw when the provider cannot be reached or does not answer in time. */
    unavailable: (cause: Error) => Error;
    /** Throws for a status the adapter refuses (a 5xx, a 4xx with the provider's message). */
    judge: (status: number, body: unknown) => void;
  },
): Promise<{ status: number; body: unknown }> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(options.unavailable(new Error(`${options.provider} did not answer within ${options.timeoutMs} ms`)));
    }, options.timeoutMs);
  });
  try {
    const response = await Promise.race([globalThis.fetch(url, { ...init, signal: controller.signal }), timeout]);
    const text = await Promise.race([response.text(), timeout]);
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    options.judge(response.status, body);
    return { status: response.status, body };
  } catch (error) {
    if (providerErrorCode(error)) throw error;
    // A dropped connection, a DNS failure, a reset mid-body.
    throw options.unavailable(error as Error);
  } finally {
    clearTimeout(timer);
  }
}

/** A provider's answer read with its schema; an answer of another shape is the provider's fault, said so. */
export function readReply<S extends z.ZodTypeAny>(
  provider: string,
  schema: S,
  what: string,
  body: unknown,
): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new Error(
      `${provider} replied with ${what} we cannot read: ${parsed.error.issues[0]?.message ?? "unknown shape"}`,
    );
  }
  return parsed.data;
}
