import type { RequestHandler } from "msw";
import { handlers as cognito } from "./cognito";
import { handlers as lob } from "./lob";
import { handlers as proof } from "./proof";
import { handlers as s3 } from "./s3";
import { handlers as stripe } from "./stripe";

/**
 * The handlers of every outside service, one file per provider under tests/mocks/, each
 * exporting `handlers` in the provider's own wire format. They are added here as the
 * providers arrive; any request no handler answers fails the test.
 */
export const handlers: RequestHandler[] = [...cognito, ...stripe, ...proof, ...lob, ...s3];
