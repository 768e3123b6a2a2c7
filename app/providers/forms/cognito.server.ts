import { z } from "zod";
import { invalid } from "~/domain/errors";
import { isHttpsUrl } from "~/domain/links";
import { INTEGER_MAX } from "~/domain/whole-numbers";
import { issuesByPath } from "~/lib/json-body.server";
import type { FormEntry, FormsProvider, HostedEntry } from "./types";

/**
 * Cognito Forms (https://www.cognitoforms.com): entries API with a bearer API key, entries
 * posted to our webhooks, and the seamless embed in the browser. Replies are parsed, never
 * trusted as typed.
 */

/** An entry number, kept in a PostgreSQL `integer` column. */
const storedInteger = z.number().int().positive().max(INTEGER_MAX, `must be at most ${INTEGER_MAX}`);

// The links are shown to members as links: a `javascript:` or `data:` one would run in their page.
const entryLink = z.string().max(2048).refine(isHttpsUrl, "must be an https: address");

const entryMetaSchema = z.object({
  Number: storedInteger,
  Version: storedInteger.default(1),
  DateCreated: z.string().optional(),
  DateUpdated: z.string().optional(),
  EditLink: entryLink.nullish(),
  ViewLink: entryLink.nullish(),
});

/** An entry as Cognito sends it: `Id` "<form>-<number>", `Entry` metadata, `Form`, and the fields. */
export const cognitoEntrySchema = z
  .object({
    Id: z.string().regex(/^\d+-\d+$/, "Id must be <form>-<number>"),
    Form: z
      .object({
        Id: z.union([z.string(), z.number()]).optional(),
        InternalName: z.string().optional(),
        Name: z.string().optional(),
      })
      .optional(),
    Entry: entryMetaSchema,
  })
  .passthrough();
export type CognitoEntry = z.infer<typeof cognitoEntrySchema>;

const cognitoErrorSchema = z.object({
  Message: z.string(),
  Type: z.string().optional(),
  SupportCode: z.string().optional(),
});

export class CognitoError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export type CognitoSettings = { apiUrl: string; apiKey: string };

async function call(settings: CognitoSettings, method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${settings.apiUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${settings.apiKey}`,
      Accept: "application/json",
      ...(body ? { "Content-Type": "application/json" } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    throw new CognitoError(response.status, `Cognito Forms answered ${response.status} with a body that is not JSON`);
  }
  if (!response.ok) {
    const error = cognitoErrorSchema.safeParse(parsed);
    throw new CognitoError(
      response.status,
      error.success ? error.data.Message : `Cognito Forms answered ${response.status}`,
    );
  }
  return parsed;
}

export async function fetchCognitoEntry(
  settings: CognitoSettings,
  formId: number,
  entryId: string,
): Promise<CognitoEntry> {
  const body = await call(settings, "GET", `/api/forms/${formId}/entries/${encodeURIComponent(entryId)}`);
  const entry = cognitoEntrySchema.safeParse(body);
  if (!entry.success) throw new CognitoError(502, "Cognito Forms sent an entry we cannot read");
  return entry.data;
}

function hashOf(link: string | null | undefined): string {
  if (!link) return "";
  return link.split("#")[1] ?? link.split("/").pop() ?? "";
}

/** The forms provider on Cognito: entries are created through its API. */
export function cognitoForms(settings: CognitoSettings): FormsProvider {
  return {
    name: "cognito",
    async submit({ formId, data }): Promise<FormEntry> {
      const body = await call(settings, "POST", `/api/forms/${formId}/entries`, data);
      const entry = cognitoEntrySchema.safeParse(body);
      if (!entry.success) throw new CognitoError(502, "Cognito Forms sent an entry we cannot read");
      return {
        id: entry.data.Id,
        formId,
        entryNumber: entry.data.Entry.Number,
        editHash: hashOf(entry.data.Entry.EditLink),
        viewHash: hashOf(entry.data.Entry.ViewLink),
        editLink: entry.data.Entry.EditLink ?? null,
        viewLink: entry.data.Entry.ViewLink ?? null,
      };
    },
    readEntry(payload): HostedEntry {
      const entry = cognitoEntrySchema.safeParse(payload);
      if (!entry.success) throw invalid("Not a Cognito Forms entry", issuesByPath(entry.error));
      return entry.data;
    },
  };
}
