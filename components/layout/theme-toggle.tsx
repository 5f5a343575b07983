"use client";

import { useTheme } from "next-themes";

/** Switches between light and dark; the icon follows the html data-theme attribute through CSS. */
export function ThemeToggle() {
  const { resolvedTheme, setTheme } = useTheme();
  return (
    <button
      type="button"
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
    </button>
  );
}
