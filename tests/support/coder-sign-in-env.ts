// Points the dashboard's Sign in with Coder at a Coder stand-in for a test file, and takes it away again.
import { BASE } from "@/tests/support/auth";
import { resetConfigForTests } from "@/lib/config";

const SIGN_IN_ENV = ["BETTER_AUTH_URL", "CODER_URL", "CODER_OAUTH2_CLIENT_ID", "CODER_OAUTH2_CLIENT_SECRET"] as const;

/** Points Sign in with Coder at the stand-in (read when Better Auth is made for each database, after this). */
export function pointSignInAtCoder(coderUrl: string, app: { clientId: string; clientSecret: string }) {
  Object.assign(process.env, {
    BETTER_AUTH_URL: BASE,
    CODER_URL: coderUrl,
    CODER_OAUTH2_CLIENT_ID: app.clientId,
    CODER_OAUTH2_CLIENT_SECRET: app.clientSecret,
  });
  resetConfigForTests();
}

/** Undoes pointSignInAtCoder. */
export function unpointSignInAtCoder() {
  for (const k of SIGN_IN_ENV) delete process.env[k];
  resetConfigForTests();
}
