"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useIsAdmin } from "@/components/auth/caller-context";

const LINKS = [
  { href: "/", label: "Overview" },
  { href: "/workspaces", label: "Workspaces" },
  { href: "/findings", label: "Findings" },
  { href: "/cleanup", label: "Cleanup" },
  { href: "/connect", label: "Connect workspaces" },
  { href: "/settings", label: "Settings" },
] as const;
const ADMIN_LINKS = [
  { href: "/users", label: "Users" },
  { href: "/audit", label: "Audit" },
] as const;

function isActive(pathname: string, href: string): boolean {
  return href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
}

export function NavLinks() {
  const pathname = usePathname();
  const links = useIsAdmin() ? [...LINKS, ...ADMIN_LINKS] : LINKS;
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
