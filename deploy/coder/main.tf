terraform {
  required_version = ">= 1.3"

  required_providers {
    coder = {
      source  = "coder/coder"
      version = ">= 2.0"
    }
  }
}

variable "agent_id" {
  description = "The ID of a Coder agent."
  type        = string
}

variable "dashboard_url" {
  description = "The storage dashboard's URL as workspaces reach it, e.g. https://storage.example.com (its Connect workspaces page shows it)."
  type        = string

  validation {
    condition     = can(regex("^https?://[^\\s'\"\\\\$]+$", var.dashboard_url))
    error_message = "dashboard_url must be an http(s) URL without spaces, quotes, backslashes or dollar signs."
  }
}

variable "enrollment_key" {
  description = "The dashboard's enrollment key (its Connect workspaces page shows it to admins). A workspace presents it once, to enroll; later runs use the token it got."
  type        = string
  sensitive   = true
}

variable "schedule" {
  description = "When the reporter runs, besides at start: a six-field cron expression, seconds first (e.g. \"0 */15 * * * *\" every 15 minutes)."
  type        = string
  default     = "0 */30 * * * *"

  validation {
    condition     = can(regex("^\\S+(\\s+\\S+){5}$", trimspace(var.schedule)))
    error_message = "schedule must have six fields, seconds first (e.g. \"0 */30 * * * *\"); a five-field Unix cron expression would run every minute's second instead."
  }
}

variable "roots" {
  description = "Extra folders to measure besides the agents' own, each a stable key, a path relative to the home folder (or absolute inside it) and the agent it belongs to. Written to the reporter's config.json when not empty."
  type = list(object({
    key   = string
    path  = string
    agent = optional(string, "other")
  }))
  default = []

  validation {
    condition     = alltrue([for r in var.roots : can(regex("^[A-Za-z0-9][A-Za-z0-9._:/@-]*$", r.key)) && trimspace(r.path) != ""])
    error_message = "Each root needs a key of letters, digits and . _ : / @ - (starting with a letter or digit) and a path."
  }
}

variable "nice" {
  description = "CPU priority of the reporter (nice value, 0-19): it measures the home folder in the background and should never slow the workspace down."
  type        = number
  default     = 10

  validation {
    condition     = var.nice >= 0 && var.nice <= 19 && floor(var.nice) == var.nice
    error_message = "nice must be a whole number from 0 to 19."
  }
}

variable "splay" {
  description = "The reporter waits a random 0 to this many seconds before it contacts the dashboard, so that a fleet whose schedule fires at the same second does not arrive at once."
  type        = number
  default     = 60

  validation {
    condition     = var.splay >= 0 && var.splay <= 3600 && floor(var.splay) == var.splay
    error_message = "splay must be a whole number of seconds from 0 to 3600."
  }
}

variable "node_runtime" {
  description = "Which Node.js runs the reporter: \"download\" uses the workspace's node when it is 18 or newer and otherwise fetches the runtime the dashboard serves (checked against the SHA-256 this module carries); \"never\" uses only the workspace's node; an absolute path uses that node binary."
  type        = string
  default     = "download"

  validation {
    condition     = contains(["download", "never"], var.node_runtime) || can(regex("^/[^\\s'\"\\\\$]+$", var.node_runtime))
    error_message = "node_runtime must be \"download\", \"never\" or an absolute path to a node binary (no spaces, quotes, backslashes or dollar signs)."
  }
}

variable "coder_inbox" {
  description = "The reporter delivers the owner's storage notices to their Coder Inbox, posting them to Coder as the owner with the owner's session token (Coder v2.27 or newer). The token stays on the workspace: it is never sent to the dashboard. Turn off to keep the token out of the reporter's environment; the notices then go by the dashboard's email and webhook only."
  type        = bool
  default     = true
}

data "coder_workspace" "me" {}

data "coder_workspace_owner" "me" {}

locals {
  # The registry's module data layout; the reporter keeps its token and spool here too.
  module_directory = "$HOME/.coder-modules/coder/storage-reporter"
  dashboard_url    = trimsuffix(var.dashboard_url, "/")
  # Written by the dashboard's build into the archive it serves: the module's version and the Node.js runtimes'
  # SHA-256, fixed when the module was built. A runtime is checked against these, never against a hash fetched
  # from the server that sends it. A copy of deploy/coder without the file runs only where Node.js is installed.
  runtime     = try(jsondecode(file("${path.module}/runtime.json")), { module_version = "source", node = { version = "", files = {} } })
  node_sha256 = { for arch, f in local.runtime.node.files : arch => f.sha256 }
}

# The key is a secret: the agent's environment, not the script's text.
resource "coder_env" "enrollment_key" {
  agent_id = var.agent_id
  name     = "STORAGE_ENROLLMENT_KEY"
  value    = var.enrollment_key
}

# The owner's address for the dashboard's notices when Coder's users API gives it none (docs/notifications.md).
resource "coder_env" "owner_email" {
  agent_id = var.agent_id
  name     = "CODER_WORKSPACE_OWNER_EMAIL"
  value    = data.coder_workspace_owner.me.email
}

# The owner's Coder Inbox (docs/notifications.md): Coder's URL and the owner's session token, a secret renewed at
# each start, through the agent's environment and never the script's text.
resource "coder_env" "coder_url" {
  count    = var.coder_inbox ? 1 : 0
  agent_id = var.agent_id
  name     = "STORAGE_CODER_URL"
  value    = data.coder_workspace.me.access_url
}

resource "coder_env" "coder_session_token" {
  count    = var.coder_inbox ? 1 : 0
  agent_id = var.agent_id
  name     = "STORAGE_CODER_SESSION_TOKEN"
  value    = data.coder_workspace_owner.me.session_token
}

resource "coder_script" "storage_reporter" {
  agent_id     = var.agent_id
  display_name = "Storage reporter"
  icon         = "/icon/database.svg"
  cron         = var.schedule
  run_on_start = true
  script = templatefile("${path.module}/scripts/run.sh.tftpl", {
    MODULE_DIR     = local.module_directory
    DASHBOARD_URL  = local.dashboard_url
    NICE           = tostring(var.nice)
    SPLAY          = tostring(var.splay)
    ROOTS          = base64encode(jsonencode(var.roots))
    WORKSPACE_ID   = data.coder_workspace.me.id
    WORKSPACE_NAME = data.coder_workspace.me.name
    OWNER_NAME     = data.coder_workspace_owner.me.name
    TEMPLATE_NAME  = data.coder_workspace.me.template_name
    MODULE_VERSION = local.runtime.module_version
    NODE_RUNTIME   = var.node_runtime
    NODE_VERSION   = local.runtime.node.version
    NODE_SHA_X64   = lookup(local.node_sha256, "x64", "")
    NODE_SHA_ARM64 = lookup(local.node_sha256, "arm64", "")
  })
}

output "module_directory" {
  description = "The module's folder on the workspace: the reporter (scripts/reporter.mjs), the Node.js runtime it fetched when the workspace has none (runtime/), the last run's log (logs/run.log), the workspace's token and the reports waiting to be sent."
  value       = local.module_directory
}

output "log_path" {
  description = "The last run's output on the workspace (each run replaces it; Coder's script log keeps it too)."
  value       = "${local.module_directory}/logs/run.log"
}

output "reporter_url" {
  description = "Where the script downloads the reporter from; its SHA-256 is at the same URL with .sha256 appended."
  value       = "${local.dashboard_url}/reporter.mjs"
}
