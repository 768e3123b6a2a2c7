import { apiError } from "~/lib/http.server";
import { MISSING_PATH_MESSAGE } from "~/domain/form-entries";

/** {formsUrl} itself names nothing: the calls are under {formsUrl}/entries. */
const missingPath = () => apiError("invalid", MISSING_PATH_MESSAGE);

export const loader = missingPath;
export const action = missingPath;
