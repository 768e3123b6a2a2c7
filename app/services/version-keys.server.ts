import { and, eq, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { claims } from "~/db/schema";

/** The condition naming a member's claim of one version of a cause: a claimant has one claim per cause and version. */
export function versionClaim(claimantId: string, causeCode: string, version: string): SQL {
  return and(eq(claims.claimantId, claimantId), eq(claims.causeCode, causeCode), eq(claims.nolVersion, version))!;
}

/** A table whose rows belong to a member's version of a cause (its entries, letters, orders, submissions). */
type VersionRows = { userId: AnyPgColumn; causeCode: AnyPgColumn; descriptiveVersion: AnyPgColumn };

/** The condition naming the rows of one member's version of a cause in such a table. */
export function ofVersion(table: VersionRows, userId: string, causeCode: string, version: string): SQL {
  return and(eq(table.userId, userId), eq(table.causeCode, causeCode), eq(table.descriptiveVersion, version))!;
}
