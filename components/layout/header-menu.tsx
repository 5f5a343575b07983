"use client";

import { usePathname } from "next/navigation";
import { useEffect, useId, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";

/**
 * The navigation and the user menu: in the header on a wide screen; on a narrow one (a phone, where they would
 * push the page sideways) behind a Menu button that opens them as a panel under the header. A navigation or
 * Escape closes it.
 */
export function HeaderMenu({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  const id = useId();
  // A link in the panel was followed: the page changed under it, so close it (state reset on a prop change).
  const [shownFor, setShownFor] = useState(pathname);
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setOpen(false);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);
  return (
    <>
      <Button className="menu-button" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        <span aria-hidden>{open ? "✕" : "☰"}</span> Menu
      </Button>
      <div id={id} className="header-menu" data-open={open}>
        {children}
      </div>
    </>
  );
}
