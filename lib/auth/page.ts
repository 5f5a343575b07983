import "server-only";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/lib/db";
import { hasRole, type Role } from "@/lib/validations/auth";
import { sessionCaller, type Caller } from "./access";
import { PATH_HEADER } from "./constants";
import { needsSetup } from "./users";

export type PageCaller = Extract<Caller, { kind: "user" }>;

/** The signed-in user of this page request (looked up once per request, shared by layout and page). */
export const currentUser = cache(async (): Promise<PageCaller | null> => {
  const caller = await sessionCaller(await getDb(), new Headers(await headers()));
  return caller?.kind === "user" ? caller : null;
});

/**
 * The check every page makes before reading data: setup first if there is no admin yet, else sign-in (and
 * back here after), else a page the role may not see does not exist for it.
 */
export async function requirePage(needed: Role = "viewer"): Promise<PageCaller> {
  if (await needsSetup(await getDb())) redirect("/setup");
  const caller = await currentUser();
  if (!caller) {
    const path = (await headers()).get(PATH_HEADER);
    redirect(path && path !== "/" ? `/sign-in?next=${encodeURIComponent(path)}` : "/sign-in");
  }
  if (!hasRole(caller.role, needed)) notFound();
  return caller;
}
