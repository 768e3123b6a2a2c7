import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";

/**
 * A passkey in software, as a browser's authenticator answers: ES256 (P-256), no attestation
 * ("none"), user present and verified. Each instance holds one credential; its answers are the
 * JSON a browser posts (RegistrationResponseJSON / AuthenticationResponseJSON).
 */

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

/** The few CBOR shapes an attestation object and a COSE key are made of (RFC 8949). */
type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;

function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  throw new Error("too long for this encoder");
}

export function cbor(value: Cbor): Buffer {
  if (typeof value === "number") return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  if (typeof value === "string") {
    const text = Buffer.from(value, "utf8");
    return Buffer.concat([cborHead(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(2, value.length), value]);
  const parts = [cborHead(5, value.size)];
  for (const [key, item] of value) parts.push(cbor(key), cbor(item));
  return Buffer.concat(parts);
}

function uint32(n: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(n);
  return buffer;
}

export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  /** The signature counter the next answer carries; raised after each one. */
  signCount = 0;

  constructor(readonly rp: { id: string; origin: string }) {
    const pair = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  /** The credential's public key as COSE EC2 (kty 2, alg -7 ES256, crv 1 P-256, x, y). */
  cosePublicKey(): Buffer {
    const jwk = this.publicKey.export({ format: "jwk" });
    return cbor(
      new Map<number, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, "base64url")],
        [-3, Buffer.from(jwk.y!, "base64url")],
      ]),
    );
  }

  private clientData(type: "webauthn.create" | "webauthn.get", challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  private authData(flags: number, signCount: number, attested?: Buffer): Buffer {
    return Buffer.concat([
      sha256(this.rp.id),
      Buffer.from([flags]),
      uint32(signCount),
      ...(attested ? [attested] : []),
    ]);
  }

  /** The answer to registration options: a new credential with its public key. */
  register(options: { challenge: string }, origin = this.rp.origin) {
    const credentialLength = Buffer.alloc(2);
    credentialLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), credentialLength, this.credentialId, this.cosePublicKey()]);
    const authData = this.authData(FLAG_UP | FLAG_UV | FLAG_AT, this.signCount, attested);
    const attestationObject = cbor(
      new Map<string, Cbor>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(this.clientData("webauthn.create", options.challenge, origin)),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /**
   * The answer to authentication options: authenticator data and an ECDSA-SHA256 signature
   * over it and the hash of the client data. The counter is the next one unless given;
   * `verified: false` answers as a key touched without its PIN or biometric.
   */
  assert(options: { challenge: string }, signCount = this.signCount + 1, { verified = true } = {}) {
    this.signCount = signCount;
    const authData = this.authData(verified ? FLAG_UP | FLAG_UV : FLAG_UP, signCount);
    const clientData = this.clientData("webauthn.get", options.challenge, this.rp.origin);
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientData)]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }
}

/** A browser's answer as the forms post it: the challenge's id, and the credential as JSON. */
export function postedAnswer(challengeId: string, credential: object) {
  return { challengeId, credential: JSON.stringify(credential) };
}
