import { setupServer } from "msw/node";
import { handlers } from "./index";

export const mockServer = setupServer(...handlers);
