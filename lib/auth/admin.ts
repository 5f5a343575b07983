import "server-only";
import { bearerToken } from "@/lib/http/request";
import { UnauthorizedError } from "@/lib/errors";
import { sameSecret } from "./tokens";

/**
 * Guards admin-only API calls. Until sign-in exists, STORAGE_ADMIN_TOKEN (when set) must be presented as a
 * bearer token; without it the admin API is as open as the pages, which the README says plainly.
 */
export function requireAdmin(request: Request): void {
  const expected = process.env.STORAGE_ADMIN_TOKEN;
  if (!expected) return;
  const presented = bearerToken(request);
  if (!presented || !sameSecret(presented, expected)) {
    throw new UnauthorizedError("This admin action needs Authorization: Bearer <STORAGE_ADMIN_TOKEN>.");
  }
}
