/**
 * The rules (zod schemas and their helpers) that loaders and actions read, for route modules.
 * A route module that imports a schema module directly links it into the page's browser code,
 * even when only its loader or action uses it; through this `.server` module it never does.
 * Pages check their forms in the browser with the same schemas, loaded after the page
 * (useSchemaForm in ~/components/forms/fields).
 */
export * from "~/domain/account";
export { backupIntentSchema } from "~/domain/backups";
export { mailIntentSchema } from "~/domain/mailing/order";
export * from "~/domain/billing-account";
export * from "~/domain/cause-admin";
export * from "~/domain/community-links";
export { mailingsQuerySchema } from "~/domain/mailing/admin-filters";
export { mailingSettingsFormSchema } from "~/domain/mailing/settings-form";
export * from "~/domain/complimentary-inputs";
export * from "~/domain/checkout-form";
export * from "~/domain/contact";
export * from "~/domain/credits";
export * from "~/domain/coupon-forms";
export * from "~/domain/documents/templates";
export { signFormSchema } from "~/domain/documents/signature";
export * from "~/domain/form-entries";
export * from "~/domain/listing";
export * from "~/domain/member-list";
export * from "~/domain/member-import-inputs";
export { archiveTokenSchema, dataArchiveFormSchema } from "~/domain/member-archive";
export * from "~/domain/nol/editors";
export * from "~/domain/nol/reminder-inputs";
export * from "~/domain/nol/timeline-inputs";
export * from "~/domain/profile";
export * from "~/domain/respondents";
export * from "~/domain/setup";
export * from "~/domain/represent";
export * from "~/domain/page-params";
export {
  SENSITIVE_ACTION_WORDS,
  SENSITIVE_ACTIONS,
  totpCodeSchema,
  type SensitiveAction,
} from "~/domain/second-factor";
export { eraseFormSchema, undoChoiceSchema } from "~/domain/account-deletion";
