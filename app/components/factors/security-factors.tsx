import type { SerializeFrom } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { Alert } from "~/components/ui/alert";
import { formatDate, formatDateTime } from "~/lib/format";
import type { securityOverview } from "~/services/factors/security-page.server";
import { PasskeyField } from "./passkey-button";
import { RowAction } from "~/components/ui/row-action";
import { IntentForm } from "~/components/ui/intent-form";

export type SecurityData = SerializeFrom<Awaited<ReturnType<typeof securityOverview>>> & { redirectTo: string | null };

/** "added Dec 3, 2026 · not used yet": when a factor came and when it last signed the member in. */
const factorDates = (verb: string, created: string, lastUsed: string | null) =>
  `${verb} ${formatDate(created)} · ${lastUsed ? `last used ${formatDateTime(lastUsed)}` : "not used yet"}`;

/** What the community asks of this member, in their words: nothing where it asks nothing of them. */
const REQUIRED_OF_WORDS = {
  admins: "Your community asks admins to use a second factor.",
  everyone: "Your community asks every member to use a second factor.",
} as const;

/**
 * /profile/security's second factors: passkeys (added with JavaScript, named, removable), the
 * authenticator app, recovery codes, and the devices that skip the factor at sign-in.
 */
export function SecurityFactors({ security, error }: { security: SecurityData; error: string | null }) {
  const { factors, devices, required, requiredOf, redirectTo } = security;
  const back = redirectTo ? [["redirectTo", redirectTo] as const] : [];
  const query = redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : "";
  return (
    <section aria-labelledby="factors-title">
      <h2 id="factors-title">Second factor</h2>
      {factors.hasFactor ? (
        <p>
          {requiredOf ? `${REQUIRED_OF_WORDS[requiredOf]} ` : null}Signing in asks for your password and then your
          passkey or authenticator app, unless this device is remembered.
        </p>
      ) : (
        <Alert kind={required ? "warn" : "success"}>
          {required
            ? "This community requires a second factor of you: add a passkey or an authenticator app to go on."
            : "Add a passkey or an authenticator app, so a stolen password alone cannot open your account."}
        </Alert>
      )}
      {factors.hasFactor && !security.fresh ? (
        <p>
          Changes to your second factors ask for one of them first.{" "}
          <Link
            to={`/profile/security/verify?for=factor-change&redirectTo=${encodeURIComponent(`/profile/security${query}`)}`}
          >
            Confirm it is you
          </Link>
        </p>
      ) : null}
      {error ? <Alert kind="error">{error}</Alert> : null}
      {security.demo ? (
        <p className="hint">
          This demo asks no one for a second factor. Add an authenticator app or a passkey here, then log out and in
          again to see it asked for.
        </p>
      ) : null}

      <h3>Passkeys</h3>
      {factors.passkeys.length > 0 ? (
        <ul className="factor-list">
          {factors.passkeys.map((passkey) => (
            <li key={passkey.id}>
              <strong>{passkey.name}</strong> · {factorDates("added", passkey.createdAt, passkey.lastUsedAt)}
              <RowAction
                intent="remove-passkey"
                field="factor"
                value={passkey.id}
                formClassName="inline-form"
                pendingText="Removing…"
                label={`Remove the passkey ${passkey.name}`}
              >
                Remove
              </RowAction>
            </li>
          ))}
        </ul>
      ) : (
        <p>No passkey yet. A passkey signs you in with your device&apos;s lock (fingerprint, face or PIN).</p>
      )}
      {/* A new key once a passkey is added: the name field starts empty for the next one. */}
      <Form method="post" className="form" key={factors.passkeys.map((passkey) => passkey.id).join()}>
        <input type="hidden" name="intent" value="add-passkey" />
        {back.map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <div className="field">
          <label htmlFor="passkey-name">Name of the new passkey</label>
          <input id="passkey-name" name="name" type="text" required maxLength={60} placeholder="My phone" />
        </div>
        <PasskeyField
          name="passkey"
          ceremony="create"
          optionsUrl="/profile/security/passkey"
          optionsFields={{ intent: "register-options" }}
        >
          Add a passkey
        </PasskeyField>
        <noscript>
          <p className="hint">Adding a passkey needs JavaScript; an authenticator app does not.</p>
        </noscript>
      </Form>

      <h3>Authenticator app</h3>
      {factors.totp ? (
        <>
          <p>{factorDates("Set up", factors.totp.createdAt, factors.totp.lastUsedAt)}</p>
          <IntentForm intent="remove-totp" className="button" pendingText="Removing…">
            Remove the authenticator app
          </IntentForm>
        </>
      ) : (
        <p>
          <Link to={`/profile/security/totp${query}`} className="button">
            Set up an authenticator app
          </Link>
        </p>
      )}

      <h3>Recovery codes</h3>
      <p>
        {factors.hasFactor
          ? `${factors.recoveryCodesLeft} of your recovery codes ${factors.recoveryCodesLeft === 1 ? "is" : "are"} left. Each signs you in once when your passkey or app is lost.`
          : "Recovery codes come with your first second factor."}
      </p>
      {factors.hasFactor ? (
        <p>
          <Link to={`/profile/security/recovery-codes${query}`}>
            {factors.recoveryCodesLeft === 0 ? "Make your recovery codes" : "Make new recovery codes"}
          </Link>
        </p>
      ) : null}

      <h3>Remembered devices</h3>
      {devices.length > 0 ? (
        <>
          <ul className="factor-list">
            {devices.map((device) => (
              <li key={device.id}>
                {device.device} · since {formatDateTime(device.createdAt)} · until {formatDateTime(device.until)}
                <RowAction
                  intent="forget-device"
                  field="device"
                  value={device.id}
                  formClassName="inline-form"
                  pendingText="Forgetting…"
                  label={`Forget ${device.device}, remembered since ${formatDateTime(device.createdAt)}`}
                >
                  Forget
                </RowAction>
              </li>
            ))}
          </ul>
          <IntentForm intent="forget-devices" className="button" pendingText="Forgetting…">
            Forget every device
          </IntentForm>
        </>
      ) : (
        <p>No device skips your second factor.</p>
      )}
    </section>
  );
}
