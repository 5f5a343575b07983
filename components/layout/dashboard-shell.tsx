import Link from "next/link";
import type { ReactNode } from "react";
import { CallerProvider, type SignedInUser } from "@/components/auth/caller-context";
import { UserMenu } from "@/components/auth/user-menu";
import { HeaderMenu } from "./header-menu";
import { NavLinks } from "./nav-links";
import { ThemeToggle } from "./theme-toggle";

/**
 * The signed-in page: header, navigation and the page below. The dashboard's layout draws it, and so do the
 * 403 and 404 pages, which Next renders outside that layout when the layout itself refuses the request.
 */
export function DashboardShell({ user, children }: { user: SignedInUser; children: ReactNode }) {
  return (
    <CallerProvider user={user}>
      <header className="header">
        <Link href="/" className="brand">
          <span className="brand-mark" aria-hidden>
            ▦
          </span>{" "}
          Workspace storage
        </Link>
        <HeaderMenu>
          <NavLinks />
          <UserMenu />
        </HeaderMenu>
        <ThemeToggle />
      </header>
      <main className="main">{children}</main>
    </CallerProvider>
  );
}
