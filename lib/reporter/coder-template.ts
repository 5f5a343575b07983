// The Terraform a template admin adds to a Coder template to run the reporter in every workspace: the registry
// module (deploy/coder) or, without the registry, the same as a plain snippet. Pure: the dashboard's "Connect
// workspaces" page and the README render their output.

/** The registry module that runs the reporter; deploy/coder/README.md names the same source and version. */
export const REPORTER_MODULE = {
  source: "registry.coder.com/coder/storage-reporter/coder",
  version: "1.0.0",
} as const;

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

/** The registry module's block for `dashboardUrl`, with the template variable that holds the enrollment key. */
export function coderModuleBlock(dashboardUrl: string): string {
  const url = normalizedUrl(dashboardUrl);
  return `${enrollmentKeyVariable(url)}
module "storage_reporter" {
  source         = "${REPORTER_MODULE.source}"
  version        = "${REPORTER_MODULE.version}"
  agent_id       = coder_agent.main.id
  dashboard_url  = "${hcl(url)}"
  enrollment_key = var.storage_enrollment_key
}
`;
}

/** Terraform for `dashboardUrl` (e.g. "https://storage.example.com"): a variable, two env values, a cron script. */
export function coderTemplateSnippet(dashboardUrl: string): string {
  const url = normalizedUrl(dashboardUrl);
  return `# Storage dashboard reporter: measures the AI agents' storage in this workspace every 30 minutes.
# Assumes a coder_agent named "main", and data "coder_workspace" "me" / "coder_workspace_owner" "me".

${enrollmentKeyVariable(url)}
resource "coder_env" "storage_dashboard_url" {
  agent_id = coder_agent.main.id
  name     = "STORAGE_DASHBOARD_URL"
  value    = "${hcl(url)}"
}

resource "coder_env" "storage_enrollment_key" {
  agent_id = coder_agent.main.id
  name     = "STORAGE_ENROLLMENT_KEY"
  value    = var.storage_enrollment_key
}

resource "coder_env" "storage_workspace_template" {
  agent_id = coder_agent.main.id
  name     = "CODER_WORKSPACE_TEMPLATE_NAME"
  value    = data.coder_workspace.me.template_name
}

resource "coder_script" "storage_reporter" {
  agent_id     = coder_agent.main.id
  display_name = "Storage reporter"
  icon         = "/icon/database.svg"
  cron         = "0 */30 * * * *"
  run_on_start = true
  script       = <<-EOT
    #!/bin/sh
    # The workspace's identity, from Terraform (the agent name from the Coder agent when it sets one).
    export CODER_WORKSPACE_ID="\${data.coder_workspace.me.id}"
    export CODER_WORKSPACE_NAME="\${data.coder_workspace.me.name}"
    export CODER_WORKSPACE_OWNER_NAME="\${data.coder_workspace_owner.me.name}"
    export CODER_WORKSPACE_AGENT_NAME="$\${CODER_WORKSPACE_AGENT_NAME:-main}"
    dir="$HOME/.coder-modules/coder/storage-reporter"
    mkdir -p "$dir" && chmod 700 "$dir"
    if ! command -v node >/dev/null 2>&1; then
      echo "storage-reporter: node (18 or newer) is not installed in this workspace; no storage report sent"
      exit 0
    fi
    url="$STORAGE_DASHBOARD_URL/reporter.mjs"
    if command -v curl >/dev/null 2>&1; then
      curl -fsSL --max-time 60 -o "$dir/reporter.mjs.new" "$url"
    elif command -v wget >/dev/null 2>&1; then
      wget -q -T 60 -O "$dir/reporter.mjs.new" "$url"
    else
      echo "storage-reporter: neither curl nor wget is installed"; false
    fi && mv -f "$dir/reporter.mjs.new" "$dir/reporter.mjs"
    if [ ! -f "$dir/reporter.mjs" ]; then
      echo "storage-reporter: could not download $url"
      exit 0
    fi
    # Exit code 75: the dashboard is unreachable and the report waits in the spool for the next run.
    # A 1 MB young generation keeps the peak memory well under 100 MB on large trees. Extra CA certificates are
    # handed over in the reporter's own variable: it reads them only when it sends, not at every start.
    STORAGE_REPORTER_EXTRA_CA_CERTS="$\${NODE_EXTRA_CA_CERTS:-}" env -u NODE_EXTRA_CA_CERTS \\
      node --max-semi-space-size=1 "$dir/reporter.mjs" --splay 60 || [ $? -eq 75 ]
  EOT
}
`;
}
