import { json } from "@remix-run/node";

/** An API path that does not exist: a JSON 404, whatever the method. */
const notFound = () => json({ error: "Unknown api" }, { status: 404 });

export const loader = notFound;
export const action = notFound;
