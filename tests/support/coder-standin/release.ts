// Which Coder release the stand-in answers as. Coder's OAuth2 provider grew over releases; each field is one
// addition, named by where it can be checked in coder/coder.

export type CoderRelease = {
  /** Client authentication by `Authorization: Basic` at /oauth2/tokens (coder/coder #21793, February 2026).
   * Before it, a token request without client_id in the form answers invalid_request "Missing client_id
   * parameter" (httpmw's OAuth2 app extraction). */
  basicClientAuth: boolean;
  /** `scopes_supported` in the discovery document and scopes checked at authorize (coder/coder #19942). */
  scopesSupported: boolean;
  /** `Authorization: Bearer` read as a session token besides `Coder-Session-Token` (mid-2025). */
  bearer: boolean;
  /** POST /oauth2/revoke (RFC 7009). */
  revoke: boolean;
};

export const CURRENT_RELEASE: CoderRelease = {
  basicClientAuth: true,
  scopesSupported: true,
  bearer: true,
  revoke: true,
};
/** A release of early 2025: none of the additions. */
export const EARLY_2025: CoderRelease = {
  basicClientAuth: false,
  scopesSupported: false,
  bearer: false,
  revoke: false,
};

/** Scopes a client may request (rbac.ExternalScopeNames), the few the stand-in needs. */
export const EXTERNAL_SCOPES = [
  "all",
  "application_connect",
  "coder:all",
  "coder:workspaces.access",
  "user:read",
  "workspace:read",
  "template:read",
];
