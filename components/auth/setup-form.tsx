"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { TextField } from "@/components/ui/field";
import { Button } from "@/components/ui/button";

/** Creates the first admin, then signs in as it. */
export function SetupForm() {
  const router = useRouter();
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const email = String(form.get("email"));
    const password = String(form.get("password"));
    if (password !== form.get("confirm")) return setError("The passwords differ.");
    setBusy(true);
    setError("");
    try {
      const res = await fetch("/api/v1/setup", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password, name: form.get("name") || undefined }),
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
        return setError(body?.error?.message ?? `Setup failed (${res.status}).`);
      }
      await fetch("/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password }),
      });
      router.replace("/");
      router.refresh();
    } catch {
      setError("Could not reach the dashboard.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="auth-card panel">
      <h1>Set up the dashboard</h1>
      <p className="muted small">
        Create the first admin. This page works once: afterwards admins add users on the Users page. (To skip it, start
        the app with ADMIN_EMAIL and ADMIN_PASSWORD.)
      </p>
      {error ? (
        <p className="error-message" role="alert">
          {error}
        </p>
      ) : null}
      <form onSubmit={submit}>
        <TextField look="plain" label="Email" name="email" type="email" autoComplete="username" required />
        <TextField look="plain" label="Name (optional)" name="name" type="text" autoComplete="name" />
        <TextField
          look="plain"
          label="Password (at least 8 characters)"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={8}
          required
        />
        <TextField
          look="plain"
          label="Password again"
          name="confirm"
          type="password"
          autoComplete="new-password"
          minLength={8}
          required
        />
        <Button type="submit" variant="primary" pending={busy}>
          Create admin and sign in
        </Button>
      </form>
    </main>
  );
}
