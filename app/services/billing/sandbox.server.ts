import type { AppServices } from "~/context";
import type { SandboxPayments } from "~/providers/payments/types";
import { DomainError } from "~/domain/errors";
import { sweepJob } from "../queue.server";
import { receivePaymentEvent } from "./events.server";
import { deliverInBatches } from "../provider-events.server";

/**
 * The sandbox's side of the event flow: it writes its events with its own changes, and these
 * hand them to the app's event handler, at once after each change and again from a sweep
 * (a change whose delivery a crash cut off), as a provider retries its webhooks.
 */

export function sandboxOf(services: AppServices): SandboxPayments {
  const sandbox = services.providers.paymentsSandbox;
  if (!sandbox) throw new DomainError("not-found", "The payments sandbox is not in use here");
  return sandbox;
}

/** Hands every event the sandbox has not delivered yet to the handler, oldest first. */
export function deliverSandboxEvents(services: AppServices): Promise<number> {
  return deliverInBatches(services.providers.paymentsSandbox, (event) => receivePaymentEvent(services, event));
}

/** Renews the sandbox subscriptions whose period has ended (or one, now, for an admin), then delivers. */
export async function renewSandboxSubscriptions(
  services: AppServices,
  options: { now?: Date; subscriptionRef?: string } = {},
): Promise<number> {
  const renewed = await sandboxOf(services).renewDue(options.now ?? new Date(), options.subscriptionRef);
  await deliverSandboxEvents(services);
  return renewed;
}

/** A sweep every minute while the payments sandbox is in use. */
const sandboxSweep = (name: string, work: (services: AppServices) => Promise<unknown>) =>
  sweepJob({
    name,
    schedule: "* * * * *",
    enabled: (services) => services.providers.paymentsSandbox !== null,
    async run(services) {
      await work(services);
    },
  });

export const sandboxEventsJob = sandboxSweep("payments-sandbox-events", deliverSandboxEvents);

/** Renewals on the real clock: every minute, the subscriptions whose period has ended. */
export const sandboxRenewalsJob = sandboxSweep("payments-sandbox-renewals", (services) =>
  renewSandboxSubscriptions(services),
);
