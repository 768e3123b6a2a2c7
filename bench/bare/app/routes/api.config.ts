import { answer } from "../answers.server";

/** The same JSON the app's GET /api/config answers, read once at start. */
export const loader = () => answer("config");
