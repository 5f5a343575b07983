"use client";

import { useQuery } from "@tanstack/react-query";
import { adminContactsOptions } from "@/lib/query/admin";

/**
 * "Ask an admin: Ada, Grace." (their addresses are an admin's to see). Fetched when shown: forbidden.tsx is sent
 * with every page, so it must not query anything itself.
 */
export function AdminContacts() {
  const { data, isError } = useQuery(adminContactsOptions());
  if (isError) return <p>Ask one of this dashboard&apos;s admins to give you the admin role, or to do it for you.</p>;
  if (!data) return <p className="muted">Looking up the admins…</p>;
  return (
    <p data-testid="admin-contacts">
      Ask an admin to give you the admin role, or to do it for you:{" "}
      {data.admins.map(({ name, email }, i) => (
        <span key={`${name} ${email ?? i}`}>
          {i ? ", " : null}
          {email ? <a href={`mailto:${email}`}>{name}</a> : name}
        </span>
      ))}
      .
    </p>
  );
}
