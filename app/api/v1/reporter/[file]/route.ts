import { getDb } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import { bearerToken } from "@/lib/http/request";
import { handle } from "@/lib/http/response";
import { reporterChecksumFor, reporterFor } from "@/lib/services/reporter-rollout";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ file: string }> };

/**
 * GET /reporter.mjs and /reporter.mjs.sha256 (proxy.ts rewrites them here): the reporter bundle a workspace runs
 * and its SHA-256 in sha256sum's format. The module's script sends the workspace's token, which picks the version
 * the rollout gives that workspace; without one (or with a token no workspace holds) the default version.
 */
export const GET = handle(async (request, { params }: Params) => {
  const { file } = await params;
  if (file !== "reporter.mjs" && file !== "reporter.mjs.sha256") throw new NotFoundError("No such file.");
  const db = await getDb();
  const token = bearerToken(request);
  // Each workspace may get another version: no cache may keep one answer for all.
  const headers = (version: string) => ({ "cache-control": "no-store", "x-reporter-version": version });
  if (file === "reporter.mjs") {
    const release = await reporterFor(db, token);
    return new Response(new Uint8Array(release.bytes), {
      headers: { ...headers(release.version), "content-type": "text/javascript; charset=utf-8" },
    });
  }
  const release = await reporterChecksumFor(db, token);
  return new Response(`${release.sha256}  reporter.mjs\n`, {
    headers: { ...headers(release.version), "content-type": "text/plain; charset=utf-8" },
  });
});
