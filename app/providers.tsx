"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import { ThemeProvider } from "next-themes";
import { useEffect, type ReactNode } from "react";
import { z } from "zod";
import { getQueryClient } from "@/lib/query/query-client";

// zod 4 probes whether it may compile parsers with `Function("")`; under the pages' Content-Security-Policy
// (no 'unsafe-eval') the probe is refused and reported as a violation. In the browser it parses without
// compiling; the server keeps its compiled parsers.
if (typeof window !== "undefined") z.config({ jitless: true });

export function Providers({ children, nonce }: { children: ReactNode; nonce?: string }) {
  const queryClient = getQueryClient();
  // Marks the document once React has hydrated it (browser tests wait for this before clicking).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <ThemeProvider attribute="data-theme" defaultTheme="system" enableSystem disableTransitionOnChange nonce={nonce}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </ThemeProvider>
  );
}
