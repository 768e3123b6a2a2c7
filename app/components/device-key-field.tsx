import { useEffect, useState } from "react";
import { deviceKey } from "~/lib/state-client";

/** Fills a hidden field with the device's public key, so API calls can be signed later. */
export function DeviceKeyField() {
  const [publicKey, setPublicKey] = useState("");
  useEffect(() => {
    deviceKey().then(
      (key) => setPublicKey(key.publicKey),
      () => setPublicKey(""),
    );
  }, []);
  return <input type="hidden" name="devicePublicKey" value={publicKey} />;
}
