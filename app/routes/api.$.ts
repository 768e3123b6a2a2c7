import { apiError } from "~/lib/http.server";

/** An API path that does not exist: a JSON 404, whatever the method. */
const unknownApi = () => apiError("not-found", "Unknown api");

export const loader = unknownApi;
export const action = unknownApi;
