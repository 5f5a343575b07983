import type { Role } from "@/lib/validations/auth";

/**
 * The pages only admins may open. Each page asks for the role itself (requirePage("admin")), which guards a
 * client navigation, where the layout does not run again. On a page load the dashboard layout asks for it from
 * this list, before the loading fallback starts the response: a refusal inside the page comes after streaming
 * began and would keep the status at 200, the layout's is a real 403. A test checks this list against the pages.
 */
export const ADMIN_PAGES: readonly string[] = [
  "/users",
  "/audit",
  "/notifications",
  "/cleanup/new",
  "/cleanup/policies/new",
];

/**
 * The pages members may open too (requirePage("member")), each reading within the member's scope: their own
 * workspaces (My storage), those workspaces' pages and findings. The overview sends a member on to My storage. Every
 * other page (the fleet, agents, cleanup, settings) is a viewer's. A test checks this list against the pages.
 */
export const MEMBER_PAGES: readonly string[] = [
  "/",
  "/me",
  "/workspaces",
  "/workspaces/[id]",
  "/findings",
  "/findings/rules",
  "/usage",
];

const matches = (pattern: string, pathname: string) =>
  new RegExp(`^${pattern.replace(/\[[^\]]+\]/g, "[^/]+")}$`).test(pathname);

/** The role a page needs, from its path (a query or trailing slash is ignored). */
export function pageRole(path: string): Role {
  const pathname = path.split(/[?#]/)[0].replace(/(.)\/+$/, "$1");
  if (ADMIN_PAGES.includes(pathname)) return "admin";
  return MEMBER_PAGES.some((p) => matches(p, pathname)) ? "member" : "viewer";
}
