// A module's folder across the fleet, `~/.coder-modules/<namespace>/<module>/`, is named by the root key the
// reporter gives it, "<namespace>/<module>", each part made of [A-Za-z0-9._@-] and starting with a letter or digit
// (lib/reporter/scan/roots.ts). The page's address and the API's path carry the two parts.

const PART = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,98}$/;

/** The root key of a module, or null when the two parts cannot name one. */
export function moduleKey(namespace: string, module: string): string | null {
  return PART.test(namespace) && PART.test(module) ? `${namespace}/${module}` : null;
}

/** The module page's address for a module root's key ("coder/claude-code" → /modules/coder/claude-code). */
export const modulePath = (key: string): string => `/modules/${key.split("/").map(encodeURIComponent).join("/")}`;
