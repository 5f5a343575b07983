import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { NONCE_HEADER } from "@/lib/auth/constants";
import { Providers } from "./providers";
import "./globals.css";
import "@/components/auth/auth.css";

export const metadata: Metadata = {
  title: { default: "Workspace storage", template: "%s · Workspace storage" },
  description: "Storage used by AI coding agents across Coder workspaces.",
  // Inline so the browser's favicon request never 404s.
  icons: {
    icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='3' fill='%232563eb'/%3E%3Crect x='3' y='9' width='2' height='4' fill='white'/%3E%3Crect x='7' y='6' width='2' height='7' fill='white'/%3E%3Crect x='11' y='3' width='2' height='10' fill='white'/%3E%3C/svg%3E",
  },
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The proxy's per-request nonce (reading it renders every page per request, as a nonce needs): next-themes
  // puts it on the inline script that sets the theme before the first paint.
  const nonce = (await headers()).get(NONCE_HEADER) ?? undefined;
  return (
    <html lang="en" suppressHydrationWarning>
      <body>
        <Providers nonce={nonce}>{children}</Providers>
      </body>
    </html>
  );
}
