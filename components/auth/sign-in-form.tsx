"use client";

import { useState, type FormEvent } from "react";
import { TextField } from "@/components/ui/field";
import { Button } from "@/components/ui/button";

type Props = { next: string; sso: string | null; coder: boolean; error?: string };

async function messageOf(res: Response): Promise<string> {
  if (res.status === 429) {
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    return body?.message && /account/.test(body.message)
      ? body.message
      : "Too many sign-in attempts; wait a minute and try again.";
  }
  const body = (await res.json().catch(() => null)) as { message?: string } | null;
  if (res.status === 401) return "The email or the password is wrong.";
  return body?.message ?? `Sign-in failed (${res.status}).`;
}

/** Email and password (Better Auth), and single sign-on when it is configured. */
export function SignInForm({ next, sso, coder, error: initialError }: Props) {
  const [error, setError] = useState(initialError ?? "");
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError("");
    try {
      const res = await fetch("/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: form.get("email"), password: form.get("password") }),
      });
      if (!res.ok) return setError(await messageOf(res));
      // A full navigation, so the server renders the page for the new session.
      window.location.assign(next);
    } catch {
      setError("Could not reach the dashboard.");
    } finally {
      setBusy(false);
    }
  };

  const singleSignOn = async (provider: "oidc" | "coder") => {
    setBusy(true);
    setError("");
    try {
      const res = await fetch("/api/auth/sign-in/social", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          provider,
          callbackURL: next,
          errorCallbackURL: `/sign-in?next=${encodeURIComponent(next)}`,
        }),
      });
      const body = (await res.json().catch(() => null)) as { url?: string; message?: string } | null;
      if (!res.ok || !body?.url) return setError(body?.message ?? `Single sign-on is not available (${res.status}).`);
      window.location.assign(body.url);
    } catch {
      setError("Could not reach the dashboard.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="auth-card panel">
      <h1>Sign in</h1>
      <p className="muted small">Workspace storage: usage of AI coding agents across Coder workspaces.</p>
      {error ? (
        <p className="error-message" role="alert" data-testid="sign-in-error">
          {error}
        </p>
      ) : null}
      {coder ? (
        <Button variant="primary" onClick={() => singleSignOn("coder")} pending={busy}>
          Sign in with Coder
        </Button>
      ) : null}
      {sso ? (
        <Button variant={coder ? "default" : "primary"} onClick={() => singleSignOn("oidc")} pending={busy}>
          Sign in with {sso}
        </Button>
      ) : null}
      {sso || coder ? <div className="auth-divider">or with a password</div> : null}
      <form onSubmit={submit}>
        <TextField look="plain" label="Email" name="email" type="email" autoComplete="username" required />
        <TextField
          look="plain"
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
        />
        <Button type="submit" variant={sso || coder ? "default" : "primary"} pending={busy}>
          Sign in
        </Button>
      </form>
    </main>
  );
}
