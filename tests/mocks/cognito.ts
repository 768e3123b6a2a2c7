import { http, HttpResponse } from "msw";

export const COGNITO_URL = "https://cognito.test";
export const COGNITO_KEY = "cognito-test-api-key";

/** Entries the fake Cognito account holds, by "<form>-<number>". */
export const cognitoEntries = new Map<string, Record<string, unknown>>();

const error = (status: number, message: string, type: string) =>
  HttpResponse.json({ Message: message, Type: type, SupportCode: "TEST-1", Data: {} }, { status });

function authorized(request: Request) {
  return request.headers.get("authorization") === `Bearer ${COGNITO_KEY}`;
}

/** Cognito Forms' entries API, in its own JSON shapes. */
export const handlers = [
  http.get(`${COGNITO_URL}/api/forms/:form/entries/:entryId`, ({ request, params }) => {
    if (!authorized(request)) return error(401, "Authorization has been denied for this request.", "Unauthorized");
    const entry = cognitoEntries.get(String(params.entryId));
    return entry ? HttpResponse.json(entry) : error(404, "Entry not found.", "NotFound");
  }),
  http.post(`${COGNITO_URL}/api/forms/:form/entries`, async ({ request, params }) => {
    if (!authorized(request)) return error(401, "Authorization has been denied for this request.", "Unauthorized");
    if (request.headers.get("content-type") !== "application/json") return error(400, "Expected JSON.", "BadRequest");
    const fields = (await request.json()) as Record<string, unknown>;
    const number = [...cognitoEntries.keys()].filter((k) => k.startsWith(`${params.form}-`)).length + 1;
    const id = `${params.form}-${number}`;
    const entry = {
      ...fields,
      Id: id,
      Form: { Id: String(params.form), InternalName: `Form${params.form}`, Name: `Form ${params.form}` },
      Entry: {
        Number: number,
        Version: 1,
        DateCreated: new Date().toISOString(),
        DateUpdated: new Date().toISOString(),
        EditLink: `https://www.cognitoforms.com/forms/edit#${"e".repeat(32)}${number}*`,
        ViewLink: `https://www.cognitoforms.com/forms/view#${"v".repeat(32)}${number}*`,
      },
    };
    cognitoEntries.set(id, entry);
    return HttpResponse.json(entry, { status: 201 });
  }),
];
