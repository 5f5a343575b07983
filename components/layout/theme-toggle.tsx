"use client";

import { useTheme } from "next-themes";
import { Button } from "@/components/ui/button";

/** Switches between light and dark; the icon follows the html data-theme attribute through CSS. */
export function ThemeToggle() {
  const { resolvedTheme, setTheme } = useTheme();
  return (
    <Button
      variant="bare"
      className="theme-toggle"
      aria-label="Toggle light and dark theme"
      title="Toggle light and dark theme"
      onClick={() => setTheme(resolvedTheme === "dark" ? "light" : "dark")}
    >
      <span className="theme-toggle-dark" aria-hidden>
        ☾
      </span>
      <span className="theme-toggle-light" aria-hidden>
        ☀
      </span>
    </Button>
  );
}
