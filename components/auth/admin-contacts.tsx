"use client";

import { useQuery } from "@tanstack/react-query";
import { adminEmailsOptions } from "@/lib/query/admin";

/**
 * "Ask an admin: a@example.com, b@example.com." Fetched when shown: forbidden.tsx is sent with every page, so
 * it must not query anything itself.
 */
export function AdminContacts() {
  const { data, isError } = useQuery(adminEmailsOptions());
  if (isError) return <p>Ask one of this dashboard&apos;s admins to give you the admin role, or to do it for you.</p>;
  if (!data) return <p className="muted">Looking up the admins…</p>;
  return (
    <p data-testid="admin-contacts">
      Ask an admin to give you the admin role, or to do it for you:{" "}
      {data.emails.map((email, i) => (
        <span key={email}>
          {i ? ", " : null}
          <a href={`mailto:${email}`}>{email}</a>
        </span>
      ))}
      .
    </p>
  );
}
