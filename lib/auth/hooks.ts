import "server-only";
import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import type { Db } from "@/lib/db/types";
import { recordAudit } from "@/lib/db/queries/audit";
import { users } from "@/lib/db/schema";
import { eq } from "drizzle-orm";
import { requestOrigin } from "./client-ip";
import { signInSucceeded, takeSignInAttempt } from "./sign-in-limit";
import { oidcDecision } from "./oidc";
import { CODER_PROVIDER_ID } from "./coder";
import { fitTokensToOwner } from "./owned-tokens";

// Better Auth's request hooks: the per-account sign-in limit, and the audit of sign-ins (good and failed) and
// sign-outs. Also the OIDC policy, applied when the user and the session are made in the callback.

type HookCtx = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

const CODER_PROVIDER_OFF =
  "Coder's OAuth2 provider does not answer yet (a Coder admin turns it on with CODER_OAUTH2_PROVIDER_ENABLE=true); " +
  "try again in a minute.";

const origin = (ctx: HookCtx) => requestOrigin(ctx.headers ?? new Headers());
const attemptedEmail = (ctx: HookCtx) =>
  typeof ctx.body?.email === "string" ? ctx.body.email.trim().toLowerCase() : "";
const isOidcCallback = (path: string | undefined) => Boolean(path?.startsWith("/callback/"));
/** The sign-in method of a callback: its provider ("oidc" or "coder"). */
const callbackMethod = (ctx: { params?: unknown } | null | undefined) => {
  const id = (ctx?.params as { id?: unknown } | undefined)?.id;
  return typeof id === "string" ? id : "oidc";
};

/** "40 seconds", "3 minutes": how long a throttled sign-in waits. */
const waitText = (ms: number) =>
  ms < 90_000 ? `${Math.max(1, Math.ceil(ms / 1000))} seconds` : `${Math.ceil(ms / 60_000)} minutes`;

export function authHooks(db: Db) {
  return {
    before: createAuthMiddleware(async (ctx) => {
      // Coder's provider not (yet) discovered: said in the product's words, not Better Auth's "Provider not found".
      if (ctx.path === "/sign-in/social" && ctx.body?.provider === CODER_PROVIDER_ID) {
        if (!ctx.context.socialProviders.some((p) => p.id === CODER_PROVIDER_ID)) {
          throw new APIError("SERVICE_UNAVAILABLE", { code: "coder_provider_off", message: CODER_PROVIDER_OFF });
        }
      }
      if (ctx.path === "/sign-in/email") {
        const email = attemptedEmail(ctx);
        const wait = email ? await takeSignInAttempt(db, email, origin(ctx).ip) : null;
        if (wait !== null) {
          await recordAudit(db, {
            actor: { type: "anonymous", label: email },
            action: "auth.sign_in_locked",
            target: email,
            details: { waitSeconds: Math.ceil(wait / 1000) },
            ...origin(ctx),
          });
          throw new APIError("TOO_MANY_REQUESTS", {
            code: "account_locked",
            message: `Too many failed sign-ins for this account from here; try again in ${waitText(wait)}.`,
          });
        }
      }
      if (ctx.path === "/sign-out") {
        // After sign-out the session is gone: note who it was now.
        const session = await getSessionFromCtx(ctx).catch(() => null);
        if (session) {
          await recordAudit(db, {
            actor: { type: "user", id: session.user.id, label: session.user.email },
            action: "auth.sign_out",
            ...origin(ctx),
          });
        }
      }
    }),
    after: createAuthMiddleware(async (ctx) => {
      const session = ctx.context.newSession;

      if (ctx.path === "/sign-in/email") {
        const email = attemptedEmail(ctx);
        if (session) {
          await signInSucceeded(db, email, origin(ctx).ip);
          await recordAudit(db, {
            actor: { type: "user", id: session.user.id, label: session.user.email },
            action: "auth.sign_in",
            details: { method: "password" },
            ...origin(ctx),
          });
        } else if (email) {
          // (Counted before the password was checked. A refused attempt never gets here: the before hook threw.)
          const code = (ctx.context.returned as APIError | undefined)?.body?.code;
          await recordAudit(db, {
            actor: { type: "anonymous", label: email },
            action: "auth.sign_in_failed",
            target: email,
            details: { reason: code ?? "unknown" },
            ...origin(ctx),
          });
        }
      }
      if (isOidcCallback(ctx.path) && session) {
        await recordAudit(db, {
          actor: { type: "user", id: session.user.id, label: session.user.email },
          action: "auth.sign_in",
          details: { method: callbackMethod(ctx), role: (session.user as { role?: string }).role },
          ...origin(ctx),
        });
      }
    }),
  };
}

function refuse(reason: string): never {
  throw new APIError("FORBIDDEN", { code: "access_denied", message: reason });
}

/**
 * A Coder account row as Better Auth would write it, without Coder's tokens: they were read once, for the user,
 * and revoked; a full API key of a Coder owner is never kept in the database.
 */
function withoutCoderTokens<T extends { providerId?: string }>(account: T) {
  if (account.providerId !== CODER_PROVIDER_ID) return undefined;
  return {
    data: {
      ...account,
      accessToken: null,
      refreshToken: null,
      idToken: null,
      accessTokenExpiresAt: null,
      refreshTokenExpiresAt: null,
    },
  };
}

/**
 * The OIDC policy at the two moments Better Auth writes during a callback: a new user gets the role the claims
 * give (or is never created), and every sign-in (new session) re-applies the role or refuses. And Coder's tokens,
 * dropped before an account row is written.
 */
export function authDatabaseHooks(db: Db) {
  return {
    account: {
      create: {
        before: async (account: { providerId?: string } & Record<string, unknown>) => withoutCoderTokens(account),
      },
      update: {
        before: async (account: { providerId?: string } & Record<string, unknown>) => withoutCoderTokens(account),
      },
    },
    user: {
      create: {
        before: async (
          user: { email: string } & Record<string, unknown>,
          ctx: { path?: string; params?: unknown } | null,
        ) => {
          if (!isOidcCallback(ctx?.path)) return;
          const decision = await oidcDecision(user.email);
          if (!decision) refuse("The identity provider's answer could not be checked; try again.");
          if (!decision.allowed) {
            await recordAudit(db, {
              actor: { type: "anonymous", label: user.email },
              action: "auth.sign_in_refused",
              target: user.email,
              details: { method: callbackMethod(ctx), reason: decision.reason },
            });
            refuse(decision.reason);
          }
          return { data: { ...user, role: decision.role, coderUsername: decision.coderUsername ?? null } };
        },
      },
    },
    session: {
      create: {
        before: async (
          session: { userId: string } & Record<string, unknown>,
          ctx: { path?: string; params?: unknown } | null,
        ) => {
          if (!isOidcCallback(ctx?.path)) return;
          const [user] = await db
            .select({ email: users.email, role: users.role, coderUsername: users.coderUsername })
            .from(users)
            .where(eq(users.id, session.userId));
          const decision = user ? await oidcDecision(user.email, true) : undefined;
          if (!user || !decision) refuse("The identity provider's answer could not be checked; try again.");
          if (!decision.allowed) {
            await recordAudit(db, {
              actor: { type: "user", id: session.userId, label: user.email },
              action: "auth.sign_in_refused",
              details: { method: callbackMethod(ctx), reason: decision.reason },
            });
            refuse(decision.reason);
          }
          // The Coder username may have changed in Coder since the last sign-in: a member's scope follows it.
          const coderUsername = decision.coderUsername ?? user.coderUsername;
          if (user.role === decision.role && user.coderUsername === coderUsername) return;
          await db.transaction(async (tx) => {
            await tx
              .update(users)
              .set({ role: decision.role, coderUsername, updatedAt: new Date() })
              .where(eq(users.id, session.userId));
            if (user.role === decision.role) return;
            const who = { actor: { type: "system" as const, label: callbackMethod(ctx) } };
            await recordAudit(tx, {
              ...who,
              action: "user.role_changed",
              target: user.email,
              details: { from: user.role, to: decision.role, reason: "identity provider claims at sign-in" },
            });
            const owner = { id: session.userId, email: user.email, role: decision.role, disabled: false };
            await fitTokensToOwner({ tx, audit: (note) => recordAudit(tx, { ...who, ...note }) }, owner);
          });
        },
      },
    },
  };
}
