import Link from "next/link";
import type { ReactNode } from "react";
import { NavLinks } from "@/components/layout/nav-links";
import { ThemeToggle } from "@/components/layout/theme-toggle";

export default function DashboardLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <header className="header">
        <Link href="/" className="brand">
          <span className="brand-mark" aria-hidden>▦</span> Workspace storage
        </Link>
        <NavLinks />
        <ThemeToggle />
      </header>
      <main className="main">{children}</main>
    </>
  );
}
