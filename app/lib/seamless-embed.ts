/** What a page needs to open a hosted form in Cognito's seamless embed. */
export type SeamlessEmbed = { scriptSrc: string; key: string; formId: number; entry: string };

/**
 * The seamless embed of a form: the script, the key, the form and the JSON prefill. Pure, so
 * services build it from the configuration without reaching the forms adapter.
 */
export function seamlessEmbed(
  settings: { apiUrl: string; embedKey: string },
  formId: number,
  prefill: Record<string, unknown>,
): SeamlessEmbed {
  return {
    scriptSrc: `${settings.apiUrl}/f/seamless.js`,
    key: settings.embedKey,
    formId,
    // Safe inside an inline <script>: no "</script>" or line separators can break out.
    entry: JSON.stringify(prefill)
      .replace(/</g, "\\u003c")
      .replace(/\u2028/g, "\\u2028")
      .replace(/\u2029/g, "\\u2029"),
  };
}
