// The Terraform a template admin adds to a Coder template to run the reporter in every workspace, in the three
// ways this dashboard serves its module (lib/terraform/module.ts): by the module registry protocol (https only, as
// Terraform asks a registry), as an archive URL, or copied beside the template. Pure: the Connect page and the
// tests render it.
import { LATEST_ARCHIVE_PATH, moduleVersionConstraint, REPORTER_MODULE } from "./module";

const normalizedUrl = (dashboardUrl: string) => dashboardUrl.trim().replace(/\/+$/, "");

/** `s` as the inside of an HCL string: quotes and backslashes escaped, and no template sequence. */
const hcl = (s: string) =>
  s
    .replace(/\\/g, "\\\\")
    .replace(/"/g, '\\"')
    .replace(/\$\{/g, () => "$${")
    .replace(/%\{/g, () => "%%{");

const enrollmentKeyVariable = (url: string) => `variable "storage_enrollment_key" {
  type        = string
  sensitive   = true
  description = "Enrollment key of the storage dashboard (Connect workspaces page: ${hcl(url)}/connect)."
}
`;

/** The module block with `sourceLines` (source, and version where the source has versions). */
const moduleBlock = (url: string, sourceLines: string) => `${enrollmentKeyVariable(url)}
module "storage_reporter" {
${sourceLines}
  agent_id       = coder_agent.main.id
  dashboard_url  = "${hcl(url)}"
  enrollment_key = var.storage_enrollment_key
}
`;

/** The registry address of the module on the dashboard's host: "storage.example.com/coder/storage-reporter/coder". */
export function registrySource(dashboardUrl: string): string {
  const { namespace, name, provider } = REPORTER_MODULE;
  return `${new URL(normalizedUrl(dashboardUrl)).host}/${namespace}/${name}/${provider}`;
}

/** The archive's URL: Terraform downloads and unpacks an http(s) source that ends in .tar.gz. */
export const archiveUrl = (dashboardUrl: string) => `${normalizedUrl(dashboardUrl)}${LATEST_ARCHIVE_PATH}`;

/** The block that fetches the module by the registry protocol, pinned to the dashboard's major version. */
export function registryModuleBlock(dashboardUrl: string): string {
  const url = normalizedUrl(dashboardUrl);
  return moduleBlock(
    url,
    `  source         = "${hcl(registrySource(url))}"
  version        = "${moduleVersionConstraint()}"`,
  );
}

/** The block that fetches the module's archive over http(s): no version, the dashboard serves its own. */
export function archiveModuleBlock(dashboardUrl: string): string {
  const url = normalizedUrl(dashboardUrl);
  return moduleBlock(url, `  source         = "${hcl(archiveUrl(url))}"`);
}

/** The block for a copy of the module in the template's folder, and the commands that make the copy. */
export function copiedModule(dashboardUrl: string): { commands: string; block: string } {
  const url = normalizedUrl(dashboardUrl);
  return {
    commands: `# in the template's folder: the module as this dashboard serves it
mkdir -p storage-reporter
curl -fsSL '${archiveUrl(url).replace(/'/g, "'\\''")}' | tar -xz -C storage-reporter`,
    block: moduleBlock(url, `  source         = "./storage-reporter"`),
  };
}

/** The first push after adding the module: the enrollment key goes into the template's variable. */
export function templatePushCommand(enrollmentKey: string | null): string {
  const key = enrollmentKey ? enrollmentKey.replace(/'/g, "'\\''") : "<enrollment key>";
  return `coder templates push <template> --variable storage_enrollment_key='${key}'`;
}

/** The first block the Connect page offers: the registry protocol over https, the archive URL over plain http. */
export const preferredModuleBlock = (dashboardUrl: string) =>
  new URL(normalizedUrl(dashboardUrl)).protocol === "https:"
    ? registryModuleBlock(dashboardUrl)
    : archiveModuleBlock(dashboardUrl);

/**
 * Why workspaces may not reach `dashboardUrl`: a loopback or unspecified address names the workspace itself, not
 * the dashboard. Null when the URL looks reachable.
 */
export function unreachableUrlWarning(dashboardUrl: string): string | null {
  const host = new URL(normalizedUrl(dashboardUrl)).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const loopback =
    host === "localhost" ||
    host.endsWith(".localhost") ||
    /^127\./.test(host) ||
    host === "::1" ||
    host === "0.0.0.0" ||
    host === "::";
  if (!loopback) return null;
  return `${host} is the workspace itself when a workspace asks for it: workspaces cannot reach this dashboard at ${normalizedUrl(dashboardUrl)}. Open this page at the address workspaces use (set a DNS name, or the address of the host), or behind the reverse proxy they reach.`;
}
