import { getDb } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import { bearerToken } from "@/lib/http/request";
import { handle } from "@/lib/http/response";
import { reporterFor } from "@/lib/services/reporter-rollout";

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
  const release = await reporterFor(await getDb(), bearerToken(request));
  // Each workspace may get another version: no cache may keep one answer for all.
  const headers = { "cache-control": "no-store", "x-reporter-version": release.version };
  if (file === "reporter.mjs")
    return new Response(new Uint8Array(release.bytes), {
      headers: { ...headers, "content-type": "text/javascript; charset=utf-8" },
    });
  return new Response(`${release.sha256}  reporter.mjs\n`, {
    headers: { ...headers, "content-type": "text/plain; charset=utf-8" },
  });
});
