import Link from "next/link";
import type { ReactNode } from "react";
import { CallerProvider } from "@/components/auth/caller-context";
import { UserMenu } from "@/components/auth/user-menu";
import { HeaderMenu } from "@/components/layout/header-menu";
import { NavLinks } from "@/components/layout/nav-links";
import { ThemeToggle } from "@/components/layout/theme-toggle";
import { requirePage } from "@/lib/auth/page";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  // The role this path needs, checked here so that a refusal is sent before streaming starts (a real 403);
  // each page checks again, as a layout is not re-rendered on every navigation.
  const user = await requirePage();
  return (
    <CallerProvider user={{ email: user.label, name: user.name, role: user.role }}>
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
