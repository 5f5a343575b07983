import { handle } from "@/lib/http/response";
import { moduleArchivePath, requireReporterModule } from "@/lib/terraform/module";

type Params = { params: Promise<{ namespace: string; name: string; provider: string; version: string }> };

// The module registry protocol's download: 204 and the archive's location in X-Terraform-Get. A path that starts
// with "/" is resolved by Terraform against this endpoint's own URL, so the archive comes from the host the template
// names, whatever address the dashboard believes it has behind a reverse proxy.
export const GET = handle(async (_request, { params }: Params) => {
  const p = await params;
  requireReporterModule(p);
  return new Response(null, {
    status: 204,
    headers: { "x-terraform-get": moduleArchivePath(p.version), "cache-control": "no-store" },
  });
});
