// Path tests and joins on plain strings, for the hot loops of both scanners: no path module, no fs call.

/** Whether `child` lies strictly inside `parent` (both absolute, normalised). */
export function isInside(child: string, parent: string): boolean {
  return child.length > parent.length && child.startsWith(parent) && child.charCodeAt(parent.length) === 47;
}

/** Whether `path` is `folder` or lies inside it (both relative or both absolute). */
export function within(path: string, folder: string): boolean {
  return path === folder || isInside(path, folder);
}

/** `abs` relative to the home folder, for error paths; absolute when it lies outside. */
export function relToHome(home: string, abs: string): string {
  return isInside(abs, home) ? abs.slice(home.length + 1) : abs;
}

/** An entry's absolute path from its folder's (which is "/" for the file system's root). */
export const childPath = (dir: string, name: string) => (dir.endsWith("/") ? dir + name : dir + "/" + name);

/** An entry's path relative to its root from its folder's ("" for the root itself). */
export const joinRel = (parent: string, name: string) => (parent === "" ? name : parent + "/" + name);
