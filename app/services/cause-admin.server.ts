import { and, asc, eq } from "drizzle-orm";
import type { AppServices } from "~/context";
import { causes, countries, countryCauses } from "~/db/schema";
import type { CauseForm } from "~/domain/cause-admin";
import { conflict, notFound } from "~/domain/errors";
import { audit, actorOf } from "./audit.server";
import { noteCatalogueSize } from "./causes.server";
import type { Viewer } from "./session.server";

/**
 * The admins' cause catalogue (/causes): each cause with its status in each country (live,
 * testing, beta or not offered) and the features its new member versions start with. Each
 * change is audited with what it was and what it became.
 */
export async function causeCatalogueAdmin(services: AppServices) {
  const { db } = services;
  const [causeRows, countryRows, statusRows] = await Promise.all([
    db.select().from(causes).orderBy(asc(causes.name)),
    db.select().from(countries).orderBy(asc(countries.name)),
    db.select().from(countryCauses),
  ]);
  noteCatalogueSize(services.logger, causeRows.length);
  return {
    countries: countryRows,
    /** The windows of a cause that sets none (NOL_NOTICE_WINDOW_DAYS, NOL_TRUE_BILL_WINDOW_DAYS). */
    defaultWindows: services.config.responseWindows,
    causes: causeRows.map((c) => ({
      code: c.code,
      label: c.label,
      name: c.name,
      allowNotarizeOnline: c.defaultFeatures.AllowNotarizeOnline,
      windows: c.responseWindows,
      status: Object.fromEntries(
        statusRows.filter((s) => s.causeCode === c.code).map((s) => [s.countryCode.trim(), s.status]),
      ) as Record<string, string>,
    })),
  };
}

export async function saveCause(services: AppServices, admin: Viewer, form: CauseForm) {
  const { db } = services;
  if (form.intent === "add-cause") {
    const made = await db
      .insert(causes)
      .values({ code: form.code, label: form.label, name: form.name })
      .onConflictDoNothing()
      .returning({ code: causes.code });
    if (made.length === 0) throw conflict("A cause has that code already", { code: ["A cause has that code already"] });
    await audit(db, actorOf(admin), "causes.add", "cause", form.code, { label: form.label, name: form.name });
    return `${form.name} is in the catalogue; choose where it is offered.`;
  }
  const before = (await causeCatalogueAdmin(services)).causes.find((c) => c.code === form.code);
  if (!before) throw notFound("Unknown cause code");
  const known = new Set((await db.select({ code: countries.code }).from(countries)).map((c) => c.code.trim()));
  await db.transaction(async (tx) => {
    await tx
      .update(causes)
      .set({
        label: form.label,
        name: form.name,
        defaultFeatures: { AllowNotarizeOnline: form.allowNotarizeOnline === "on" },
        responseWindows: form.window,
      })
      .where(eq(causes.code, form.code));
    for (const [country, status] of Object.entries(form.status)) {
      if (!known.has(country)) continue;
      if (status === "none") {
        await tx
          .delete(countryCauses)
          .where(and(eq(countryCauses.causeCode, form.code), eq(countryCauses.countryCode, country)));
      } else {
        await tx
          .insert(countryCauses)
          .values({ countryCode: country, causeCode: form.code, status })
          .onConflictDoUpdate({ target: [countryCauses.countryCode, countryCauses.causeCode], set: { status } });
      }
    }
  });
  const after = (await causeCatalogueAdmin(services)).causes.find((c) => c.code === form.code);
  await audit(db, actorOf(admin), "causes.save", "cause", form.code, { before, after });
  return `${form.name} is saved.`;
}
