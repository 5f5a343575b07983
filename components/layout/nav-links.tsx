"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useSignedInUser } from "@/components/auth/caller-context";

const LINKS = [
  { href: "/", label: "Overview" },
  { href: "/workspaces", label: "Workspaces" },
  { href: "/agents", label: "Agents" },
  { href: "/findings", label: "Findings" },
  { href: "/restart", label: "Lost at restart" },
  { href: "/usage", label: "Usage" },
  { href: "/cleanup", label: "Cleanup" },
  { href: "/connect", label: "Connect" },
  { href: "/settings", label: "Settings" },
] as const;
/** A member (signed in with Coder) sees their own storage, workspaces and findings, none of the fleet's pages. */
const MEMBER_LINKS = [
  { href: "/me", label: "My storage" },
  { href: "/workspaces", label: "Your workspaces" },
  { href: "/findings", label: "Findings" },
  { href: "/usage", label: "Usage" },
] as const;
const ADMIN_LINKS = [
  { href: "/users", label: "Users" },
  { href: "/notifications", label: "Notices" },
  { href: "/audit", label: "Audit" },
] as const;

function isActive(pathname: string, href: string): boolean {
  return href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
}

export function NavLinks() {
  const pathname = usePathname();
  const role = useSignedInUser()?.role;
  const links = role === "member" ? MEMBER_LINKS : role === "admin" ? [...LINKS, ...ADMIN_LINKS] : LINKS;
  return (
    <nav aria-label="Main" className="nav">
      {links.map((link) => (
        <Link key={link.href} href={link.href} aria-current={isActive(pathname, link.href) ? "page" : undefined}>
          {link.label}
        </Link>
      ))}
    </nav>
  );
}
