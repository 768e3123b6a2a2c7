import type { AppConfig } from "~/config/config.server";
import { requestSignature, signingKey } from "~/services/state-header.server";

/** Signs a request the way the browser does (DESIGN.md §4). */
export function signedRequest(
  url: string,
  input: {
    state: string;
    hash: string;
    devicePrivateKey: string;
    config: Pick<AppConfig, "statePublicKey">;
    method?: string;
    signPath?: string;
  },
): Request {
  const full = new URL(url, "http://localhost");
  const method = input.method ?? "GET";
  const key = signingKey(input.devicePrivateKey, input.config.statePublicKey);
  const sig = requestSignature(key, input.hash, method, input.signPath ?? full.pathname + full.search);
  return new Request(full, { method, headers: { state: input.state, "state-hash": input.hash, "state-sig": sig } });
}
