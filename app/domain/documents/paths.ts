/** Where the member's page asks for a notice's document (POST with the ids, or GET to show or save it). */
export const PREVIEW_PATH = "/api/nol/preview";
