import { z } from "zod";
import type { QueuedJob } from "../queue.server";

/**
 * The queue of paid letters' orders: its payment's event queues the order here, and the
 * mailings' job of the same name (mailings/order-jobs.server.ts) sends its letters.
 */
export const mailingOrderPaidQueue = {
  name: "mailing-order-paid",
  data: z.object({ checkoutId: z.string().uuid() }),
  retry: { limit: 10, delaySeconds: 10 },
} satisfies QueuedJob;
