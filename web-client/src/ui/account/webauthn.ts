// The browser's side of a passkey ceremony (proto/PROTOCOL.md, *Accounts*): the server's options as
// JSON (binary fields base64url; webauthn-rs wraps them as `{"publicKey": {...}}`) made into what
// `navigator.credentials` takes, and its answer made into JSON as `PublicKeyCredential.toJSON()` gives
// it. Browsers without the JSON helpers (older Safari, Firefox) get the same from the converters here.

type Json = Record<string, unknown>;

/** The `publicKey` object of a ceremony's options, whether or not it is wrapped in `{publicKey}`. */
export function publicKeyOf(options: unknown): Json {
  const o = (options ?? {}) as Json;
  return (typeof o.publicKey === "object" && o.publicKey !== null ? o.publicKey : o) as Json;
}

const fromB64 = (s: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4)), (c) =>
    c.charCodeAt(0),
  );

const toB64 = (b: ArrayBuffer | null | undefined): string | undefined =>
  b
    ? btoa(String.fromCharCode(...new Uint8Array(b)))
        .replace(/\+/g, "-")
        .replace(/\//g, "_")
        .replace(/=+$/, "")
    : undefined;

const withIds = (list: unknown) =>
  Array.isArray(list) ? list.map((c: Json) => ({ ...c, id: fromB64(c.id as string) })) : list;

type JsonHelpers = {
  parseCreationOptionsFromJSON?: (o: Json) => PublicKeyCredentialCreationOptions;
  parseRequestOptionsFromJSON?: (o: Json) => PublicKeyCredentialRequestOptions;
};
const helpers = (): JsonHelpers => (globalThis.PublicKeyCredential ?? {}) as unknown as JsonHelpers;

/** Options for `navigator.credentials.create`. */
export function creationOptions(options: unknown): PublicKeyCredentialCreationOptions {
  const o = publicKeyOf(options);
  const parse = helpers().parseCreationOptionsFromJSON;
  if (parse) return parse(o);
  const user = o.user as Json;
  return {
    ...o,
    challenge: fromB64(o.challenge as string),
    user: { ...user, id: fromB64(user.id as string) },
    excludeCredentials: withIds(o.excludeCredentials),
  } as unknown as PublicKeyCredentialCreationOptions;
}

/** Options for `navigator.credentials.get`. */
export function requestOptions(options: unknown): PublicKeyCredentialRequestOptions {
  const o = publicKeyOf(options);
  const parse = helpers().parseRequestOptionsFromJSON;
  if (parse) return parse(o);
  return {
    ...o,
    challenge: fromB64(o.challenge as string),
    allowCredentials: withIds(o.allowCredentials),
  } as unknown as PublicKeyCredentialRequestOptions;
}

/** The browser's answer as JSON, for `…/finish`. */
export function credentialJson(credential: Credential | null): unknown {
  if (!credential) throw new DOMException("no credential", "NotAllowedError");
  const c = credential as PublicKeyCredential & { toJSON?: () => unknown };
  if (typeof c.toJSON === "function") return c.toJSON();
  const r = c.response as AuthenticatorAttestationResponse & AuthenticatorAssertionResponse;
  return {
    id: c.id,
    rawId: toB64(c.rawId),
    type: c.type,
    authenticatorAttachment: c.authenticatorAttachment ?? undefined,
    clientExtensionResults: c.getClientExtensionResults(),
    response: {
      clientDataJSON: toB64(r.clientDataJSON),
      attestationObject: toB64(r.attestationObject),
      authenticatorData: toB64(r.authenticatorData),
      signature: toB64(r.signature),
      userHandle: toB64(r.userHandle),
      transports: typeof r.getTransports === "function" ? r.getTransports() : undefined,
    },
  };
}

/** What a passkey ceremony needs of the browser (a test gives its own). */
export interface Authenticator {
  /** A new passkey: the answer's JSON. */
  create(options: unknown): Promise<unknown>;
  /** A passkey of this site: the answer's JSON. With `signal`, the browser's autofill offers it
   *  (`mediation: "conditional"`) until the signal aborts. */
  get(options: unknown, signal?: AbortSignal): Promise<unknown>;
  /** Whether passkey autofill is there. */
  autofill(): Promise<boolean>;
}

export const browserAuthenticator: Authenticator = {
  create: async (options) =>
    credentialJson(await navigator.credentials.create({ publicKey: creationOptions(options) })),
  get: async (options, signal) =>
    credentialJson(
      await navigator.credentials.get({
        publicKey: requestOptions(options),
        ...(signal ? { mediation: "conditional" as CredentialMediationRequirement, signal } : {}),
      }),
    ),
  autofill: async () => {
    const pkc = globalThis.PublicKeyCredential as
      | { isConditionalMediationAvailable?: () => Promise<boolean> }
      | undefined;
    return (await pkc?.isConditionalMediationAvailable?.().catch(() => false)) ?? false;
  },
};

/** Whether this browser has passkeys at all. */
export const hasPasskeys = (): boolean => typeof globalThis.PublicKeyCredential === "function";
