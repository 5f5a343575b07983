"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { meOptions } from "@/lib/query/admin";
import { AdminContacts } from "./admin-contacts";

/**
 * Why a page was refused, for the role asking: a member (signed in with Coder) sees only their own workspaces,
 * a viewer is missing the admin role. Fetched when shown, as forbidden.tsx is sent with every page.
 */
export function ForbiddenReason() {
  const { data } = useQuery(meOptions());
  if (data?.role === "member") {
    return (
      <>
        <h1>Your workspaces only</h1>
        <p>
          This page shows the whole fleet. You signed in with Coder as a member, and members see the storage of the
          workspaces they own.
        </p>
        <p>
          <Link href="/workspaces">Go to your workspaces</Link>
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Admins only</h1>
      <p>This page needs the admin role, and you are signed in as a viewer.</p>
      <AdminContacts />
      <p>
        <Link href="/">Back to the fleet overview</Link>
      </p>
    </>
  );
}
