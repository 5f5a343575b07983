"use client";

import { createContext, useContext, type ReactNode } from "react";
import type { Role } from "@/lib/validations/auth";

/** The signed-in user as the browser may know it: no ids, no secrets. */
export type SignedInUser = { email: string; name: string; role: Role };

const CallerContext = createContext<SignedInUser | null>(null);

export function CallerProvider({ user, children }: { user: SignedInUser; children: ReactNode }) {
  return <CallerContext.Provider value={user}>{children}</CallerContext.Provider>;
}

export function useSignedInUser(): SignedInUser | null {
  return useContext(CallerContext);
}

/** Whether to show admin controls. Only a matter of display: the server checks every admin request itself. */
export function useIsAdmin(): boolean {
  return useContext(CallerContext)?.role === "admin";
}
