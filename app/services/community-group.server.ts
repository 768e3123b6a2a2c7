import { and, desc, eq, inArray, isNotNull } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { checkouts, couponDiscounts } from "~/db/schema";
import { groupStanding, type GroupStanding } from "~/domain/community";

/** The member's group, from their latest checkout through a group's coupon that has not failed. */
export async function memberGroupStanding(db: Database, userId: string): Promise<GroupStanding> {
  const [latest] = await db
    .select({ status: checkouts.status, groupName: couponDiscounts.groupName })
    .from(checkouts)
    .innerJoin(couponDiscounts, eq(couponDiscounts.id, checkouts.couponDiscountId))
    .where(
      and(
        eq(checkouts.userId, userId),
        isNotNull(couponDiscounts.groupName),
        inArray(checkouts.status, ["open", "requires_action", "processing", "succeeded"]),
      ),
    )
    .orderBy(desc(checkouts.createdAt))
    .limit(1);
  return groupStanding(latest ?? null);
}
