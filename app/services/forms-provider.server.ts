import type { AppServices } from "~/context";
import { builtinForms } from "~/providers/forms/builtin.server";
import { cognitoForms } from "~/providers/forms/cognito.server";
import type { FormsProvider } from "~/providers/forms/types";

/** The forms provider the configuration chooses; the built-in one is the default. */
export function formsFor(services: AppServices): FormsProvider {
  const { config } = services;
  if (config.forms === "cognito" && config.cognitoApiKey) {
    return cognitoForms({ apiUrl: config.cognitoApiUrl, apiKey: config.cognitoApiKey });
  }
  return builtinForms(services.db);
}
