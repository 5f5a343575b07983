// A real OpenID provider for the single sign-on tests: node-oidc-provider (OpenID Certified) on 127.0.0.1,
// with its development login and consent pages (any password; the login names an account below).
import http from "node:http";
import Provider from "oidc-provider";

export const OIDC_CLIENT = { id: "storage-dashboard", secret: "oidc-client-secret-for-tests" };

export const OIDC_ACCOUNTS: Record<string, { email: string; email_verified: boolean; name: string; groups: string[] }> =
  {
    alice: { email: "alice@example.com", email_verified: true, name: "Alice Admin", groups: ["storage-admins", "dev"] },
    bob: { email: "bob@example.com", email_verified: true, name: "Bob Viewer", groups: ["dev"] },
    mallory: { email: "mallory@elsewhere.org", email_verified: true, name: "Mallory", groups: ["storage-admins"] },
  };

export type RunningProvider = { issuer: string; close: () => Promise<void> };

export async function startOidcProvider(port: number, redirectUri: string): Promise<RunningProvider> {
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT.id,
        client_secret: OIDC_CLIENT.secret,
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    cookies: { keys: ["oidc-provider-test-cookie-key"] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"], groups: ["groups"] },
    scopes: ["openid", "email", "profile", "groups"],
    findAccount: async (_ctx, id) => {
      const account = OIDC_ACCOUNTS[id];
      return account ? { accountId: id, claims: async () => ({ sub: id, ...account }) } : undefined;
    },
  });
  const server = http.createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { issuer, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
