"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useSignedInUser } from "./caller-context";
import { Button } from "@/components/ui/button";

/** Who is signed in, as what, and the way out. */
export function UserMenu() {
  const user = useSignedInUser();
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  if (!user) return null;
  const signOut = async () => {
    setBusy(true);
    try {
      await fetch("/api/auth/sign-out", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
    } finally {
      router.replace("/sign-in");
      // Drops the signed-in pages the router cached.
      router.refresh();
    }
  };
  return (
    <div className="user-menu" data-testid="user-menu">
      <span className="user-name" title={user.email}>
        {user.name || user.email}
      </span>
      <span className="badge" data-testid="user-role">
        {user.role}
      </span>
      <Button onClick={signOut} pending={busy}>
        Sign out
      </Button>
    </div>
  );
}
