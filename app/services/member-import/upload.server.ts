import {
  unstable_composeUploadHandlers,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
} from "@remix-run/node";
import type { AppServices } from "~/context";
import { invalid, isDomainError } from "~/domain/errors";
import { importUploadSchema } from "~/domain/member-import-inputs";
import type { Viewer } from "../session.server";
import { checkImport, type CheckResult } from "./check.server";
import { discardUpload, NOT_CSV, saveUpload, type Upload } from "./read.server";

const CHOOSE_A_FILE = "Choose a CSV file to import.";

/**
 * POST /members/import: the upload, streamed to a file of its own, then the dry run. The form's
 * other fields are small and read in memory; a part that is not the file field is refused.
 */
export async function receiveImport(services: AppServices, admin: Viewer, request: Request): Promise<CheckResult> {
  if (!request.headers.get("content-type")?.startsWith("multipart/form-data")) throw invalid(CHOOSE_A_FILE);
  let upload: Upload | null = null;
  try {
    const handler = unstable_composeUploadHandlers(
      async ({ name, filename, data }) => {
        if (filename === undefined) return undefined;
        if (name !== "file" || upload) throw invalid(CHOOSE_A_FILE);
        if (filename === "") return undefined;
        upload = await saveUpload(filename, data);
        return "received";
      },
      unstable_createMemoryUploadHandler({ maxPartSize: 4 * 1024 }),
    );
    const form = await unstable_parseMultipartFormData(request, handler).catch((error: unknown) => {
      if (isDomainError(error)) throw error;
      throw invalid(NOT_CSV);
    });
    if (!upload) throw invalid(CHOOSE_A_FILE);
    const fields = importUploadSchema.safeParse({ invite: form.get("invite") ?? undefined });
    if (!fields.success) throw invalid(fields.error.issues[0]!.message);
    return await checkImport(services, admin, upload, { invite: fields.data.invite });
  } finally {
    await discardUpload(upload);
  }
}
