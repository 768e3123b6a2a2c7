import { afterAll, afterEach, beforeAll } from "vitest";
import { mockServer } from "../mocks/server";

// Started before any provider client exists, so every fetch goes through msw.
beforeAll(() => mockServer.listen({ onUnhandledRequest: "error" }));
afterEach(() => mockServer.resetHandlers());
afterAll(() => mockServer.close());
