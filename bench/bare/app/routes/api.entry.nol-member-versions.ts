import { answer } from "../answers.server";

/** The same JSON the app's GET /api/entry/nol-member-versions answers a member, read once at start. */
export const loader = () => answer("versions");
