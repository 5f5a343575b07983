import "server-only";
import { headers } from "next/headers";
import { forbidden, notFound, redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/lib/db";
import { pageTargetExists } from "@/lib/db/queries/page-targets";
import { pageTarget } from "@/lib/validations/page-targets";
import { hasRole, type Role } from "@/lib/validations/auth";
import { sessionCaller } from "./access";
import type { Caller } from "./caller";
import { PATH_HEADER } from "./constants";
import { pageRole } from "./page-roles";
import { needsSetup } from "./users";

export type PageCaller = Extract<Caller, { kind: "user" }>;

/** The signed-in user of this page request (looked up once per request, shared by layout and page). */
export const currentUser = cache(async (): Promise<PageCaller | null> => {
  const caller = await sessionCaller(await getDb(), new Headers(await headers()));
  return caller?.kind === "user" ? caller : null;
});

/**
 * The check every page makes before reading data: setup first if there is no admin yet, else sign-in (and
 * back here after), else a page the role may not see answers 403 (app/forbidden.tsx says who to ask). Without
 * `needed`, the role the path needs (the layout's check; see page-roles.ts).
 */
export async function requirePage(needed?: Role): Promise<PageCaller> {
  if (await needsSetup(await getDb())) redirect("/setup");
  const path = (await headers()).get(PATH_HEADER);
  const caller = await currentUser();
  if (!caller) redirect(path && path !== "/" ? `/sign-in?next=${encodeURIComponent(path)}` : "/sign-in");
  if (!hasRole(caller.role, needed ?? pageRole(path ?? "/"))) forbidden();
  return caller;
}

/**
 * The layout's 404: the record this path names (a workspace, agent, run or policy) is looked up before the page
 * streams, since a page's own notFound() comes after the loading boundary has sent 200.
 */
export async function requireKnownTarget(caller: PageCaller): Promise<void> {
  const target = pageTarget((await headers()).get(PATH_HEADER) ?? "/");
  if (target && !(await pageTargetExists(await getDb(), caller.scope, target))) notFound();
}

/**
 * The signed-in user for a page drawn outside the dashboard's layout (403, 404), or null. The request's headers
 * are read first: a build's prerender stops there, before any database is opened.
 */
export async function shellUser(): Promise<{ email: string; name: string; role: Role } | null> {
  await headers();
  const caller = await currentUser();
  return caller && { email: caller.label, name: caller.name, role: caller.role };
}
