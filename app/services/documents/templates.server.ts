import { and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { LOCK, xactLock } from "~/db/locks";
import { causes, documentTemplates, settings } from "~/db/schema";
import {
  DEFAULT_DISCLAIMER,
  DISCLAIMER_KEY,
  pickTemplate,
  sameScope,
  type TemplateScope,
} from "~/domain/documents/templates";
import { notFound } from "~/domain/errors";
import { audit, actorOf } from "../audit.server";
import type { Viewer } from "../session.server";

/** The document templates and their versions, and the community's "not legal advice" notice (docs/decisions/020). */

export type TemplateRow = typeof documentTemplates.$inferSelect;

function scopeWhere(scope: TemplateScope) {
  return and(
    scope.causeCode === null ? isNull(documentTemplates.causeCode) : eq(documentTemplates.causeCode, scope.causeCode),
    eq(documentTemplates.kind, scope.kind),
    scope.round === null ? isNull(documentTemplates.round) : eq(documentTemplates.round, scope.round),
  );
}

async function templatesOfKind(db: Database, kind: TemplateScope["kind"]): Promise<TemplateRow[]> {
  return db.select().from(documentTemplates).where(eq(documentTemplates.kind, kind));
}

/** The template a round's document is made with now: the newest version of the most specific scope. */
export async function templateInUse(db: Database, want: TemplateScope): Promise<TemplateRow> {
  const template = pickTemplate(await templatesOfKind(db, want.kind), want);
  // seedDocumentDefaults runs at every start, so only a database no server started lacks one.
  if (!template) throw notFound("No document template is set up");
  return template;
}

export async function templateById(db: Database, id: number): Promise<TemplateRow> {
  const [row] = await db.select().from(documentTemplates).where(eq(documentTemplates.id, id));
  if (!row) throw notFound();
  return row;
}

async function causeNames(db: Database): Promise<Map<string, string>> {
  return new Map((await db.select({ code: causes.code, name: causes.name }).from(causes)).map((c) => [c.code, c.name]));
}

/** /admin/templates: the newest version of each scope, the causes a new scope may name, and the notice. */
export async function templatesOverview(db: Database) {
  const rows = await db
    .select()
    .from(documentTemplates)
    .orderBy(
      asc(documentTemplates.kind),
      sql`${documentTemplates.causeCode} nulls first`,
      sql`${documentTemplates.round} nulls first`,
      desc(documentTemplates.version),
    );
  const names = await causeNames(db);
  const newest = rows.filter((row, i) => i === 0 || !sameScope(rows[i - 1]!, row));
  return {
    templates: newest.map((t) => ({
      ...templateSummary(t),
      causeName: t.causeCode ? (names.get(t.causeCode) ?? t.causeCode) : null,
    })),
    causes: [...names].map(([code, name]) => ({ code, name })),
    disclaimer: await documentDisclaimer(db),
  };
}

function templateSummary(t: TemplateRow) {
  return {
    id: t.id,
    causeCode: t.causeCode,
    kind: t.kind,
    round: t.round,
    version: t.version,
    createdAt: t.createdAt.toISOString(),
  };
}

/** /admin/templates/{id}: one version, every version of its scope, and its cause's name. */
export async function templateEditor(db: Database, id: number) {
  const template = await templateById(db, id);
  const versions = await db
    .select()
    .from(documentTemplates)
    .where(scopeWhere(template))
    .orderBy(desc(documentTemplates.version));
  const causeName = template.causeCode ? ((await causeNames(db)).get(template.causeCode) ?? template.causeCode) : null;
  return {
    template: { ...templateSummary(template), body: template.body, causeName },
    newestId: versions[0]!.id,
    versions: versions.map(templateSummary),
    disclaimer: await documentDisclaimer(db),
  };
}

/** Saves a template's text as the next version of its scope; the new version is the one in use from now on. */
export async function saveTemplateVersion(
  services: AppServices,
  viewer: Viewer,
  id: number,
  body: string,
): Promise<TemplateRow> {
  const base = await templateById(services.db, id);
  const scope = { causeCode: base.causeCode, kind: base.kind, round: base.round };
  const saved = await addVersion(services.db, scope, body, viewer.user.id);
  await audit(services.db, actorOf(viewer), "document-template.save", "document_template", String(saved.id), {
    version: saved.version,
    from: base.id,
  });
  return saved;
}

/**
 * A template for a scope that has none: its first version starts from the text the scope
 * uses now. A scope that has one already answers its newest version.
 */
export async function createTemplateScope(
  services: AppServices,
  viewer: Viewer,
  scope: TemplateScope,
): Promise<{ template: TemplateRow; created: boolean }> {
  if (scope.causeCode !== null) {
    const [cause] = await services.db
      .select({ code: causes.code })
      .from(causes)
      .where(eq(causes.code, scope.causeCode));
    if (!cause) throw notFound("Unknown cause code");
  }
  const existing = (await templatesOfKind(services.db, scope.kind)).filter((t) => sameScope(t, scope));
  if (existing.length > 0) return { template: pickTemplate(existing, scope)!, created: false };
  const start = await templateInUse(services.db, scope);
  const template = await addVersion(services.db, scope, start.body, viewer.user.id);
  await audit(services.db, actorOf(viewer), "document-template.create", "document_template", String(template.id), {
    ...scope,
  });
  return { template, created: true };
}

async function addVersion(db: Database, scope: TemplateScope, body: string, createdBy: string): Promise<TemplateRow> {
  return db.transaction(async (tx) => {
    // Two admins saving the same scope at once get versions n + 1 and n + 2.
    await tx.execute(xactLock(LOCK.templateScope, `${scope.causeCode ?? ""}|${scope.kind}|${scope.round ?? ""}`));
    const [last] = await tx
      .select({ version: sql<number>`coalesce(max(${documentTemplates.version}), 0)` })
      .from(documentTemplates)
      .where(scopeWhere(scope));
    const [row] = await tx
      .insert(documentTemplates)
      .values({ ...scope, version: Number(last?.version ?? 0) + 1, body, createdBy })
      .returning();
    return row!;
  });
}

/** The community's "not legal advice" notice, shown on each page that makes a document and printed on it. */
export async function documentDisclaimer(db: Database): Promise<string> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, DISCLAIMER_KEY));
  return typeof row?.value === "string" ? row.value : DEFAULT_DISCLAIMER;
}

export async function saveDocumentDisclaimer(services: AppServices, viewer: Viewer, text: string): Promise<void> {
  await services.db
    .insert(settings)
    .values({ key: DISCLAIMER_KEY, value: text })
    .onConflictDoUpdate({ target: settings.key, set: { value: text } });
  await audit(services.db, actorOf(viewer), "document-disclaimer.save", "settings", DISCLAIMER_KEY);
}
