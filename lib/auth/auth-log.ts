import { isAPIError } from "better-auth/api";

type Level = "debug" | "info" | "warn" | "error";

/**
 * Better Auth's log lines, in the app's terms. Its "Base URL is not set" comes from every instance it makes (one
 * per database or transaction), so it is dropped here and said once at start (baseUrlNotice in server.ts). A token that
 * fails validation (unknown, revoked, expired) is a caller's mistake, answered 401: one info line, not an error
 * with the exception dumped. Everything else goes through as Better Auth wrote it.
 */
export function authLog(level: Level, message: string, ...args: unknown[]) {
  if (message.includes("Base URL is not set")) return;
  if (message.startsWith("Failed to validate API key") && isAPIError(args[0])) {
    console.info(`[auth] API token refused: ${args[0].message}`);
    return;
  }
  const write = level === "error" ? console.error : level === "warn" ? console.warn : console.info;
  write(`[auth] ${message}`, ...args);
}
