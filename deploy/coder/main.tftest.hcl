run "defaults" {
  command = plan

  variables {
    agent_id       = "agent-123"
    dashboard_url  = "https://storage.example.com/"
    enrollment_key = "sek_test"
  }

  assert {
    condition     = coder_script.storage_reporter.cron == "0 */30 * * * *"
    error_message = "The reporter runs every 30 minutes by default"
  }

  assert {
    condition     = coder_script.storage_reporter.run_on_start == true
    error_message = "The reporter runs at the workspace's start"
  }

  assert {
    condition     = coder_script.storage_reporter.agent_id == "agent-123"
    error_message = "The script runs on the given agent"
  }

  assert {
    condition     = strcontains(coder_script.storage_reporter.script, "DASHBOARD_URL='https://storage.example.com'")
    error_message = "The script downloads from the dashboard URL without its trailing slash"
  }

  assert {
    condition     = strcontains(coder_script.storage_reporter.script, "MODULE_DIR=\"$HOME/.coder-modules/coder/storage-reporter\"")
    error_message = "The script keeps its files under the registry's module data layout"
  }

  assert {
    condition     = !strcontains(coder_script.storage_reporter.script, "sek_test")
    error_message = "The enrollment key is not in the script's text"
  }

  assert {
    condition     = coder_env.enrollment_key.name == "STORAGE_ENROLLMENT_KEY" && coder_env.enrollment_key.value == "sek_test"
    error_message = "The enrollment key reaches the reporter through the agent's environment"
  }

  assert {
    condition     = coder_env.owner_email.name == "CODER_WORKSPACE_OWNER_EMAIL"
    error_message = "The owner's address reaches the reporter through the agent's environment"
  }

  assert {
    condition     = output.reporter_url == "https://storage.example.com/reporter.mjs"
    error_message = "reporter_url is the dashboard's /reporter.mjs"
  }

  assert {
    condition     = output.log_path == "$HOME/.coder-modules/coder/storage-reporter/logs/run.log"
    error_message = "The log is in the module folder's logs/"
  }

  assert {
    condition     = length(coder_env.coder_url) == 1 && coder_env.coder_url[0].name == "STORAGE_CODER_URL"
    error_message = "Coder's URL reaches the reporter through the agent's environment by default"
  }

  assert {
    condition     = length(coder_env.coder_session_token) == 1 && coder_env.coder_session_token[0].name == "STORAGE_CODER_SESSION_TOKEN"
    error_message = "The owner's session token reaches the reporter through the agent's environment by default"
  }

  assert {
    condition     = !strcontains(coder_script.storage_reporter.script, "STORAGE_CODER_SESSION_TOKEN") && !strcontains(coder_script.storage_reporter.script, "session_token")
    error_message = "The session token is not in the script's text"
  }

  assert {
    condition     = strcontains(coder_script.storage_reporter.script, "NODE_RUNTIME='download'")
    error_message = "By default the script fetches the dashboard's Node.js runtime where the workspace has none"
  }
}

run "custom_schedule_priority_and_roots" {
  command = plan

  variables {
    agent_id       = "agent-123"
    dashboard_url  = "http://storage.coder.svc.cluster.local"
    enrollment_key = "sek_test"
    schedule       = "0 0 */6 * * *"
    nice           = 19
    splay          = 0
    roots          = [{ key = "datasets", path = "data/sets" }]
  }

  assert {
    condition     = coder_script.storage_reporter.cron == "0 0 */6 * * *"
    error_message = "The schedule is the cron of the script"
  }

  assert {
    condition     = strcontains(coder_script.storage_reporter.script, "NICE='19'") && strcontains(coder_script.storage_reporter.script, "SPLAY='0'")
    error_message = "nice and splay reach the script"
  }

  assert {
    condition     = strcontains(coder_script.storage_reporter.script, base64encode(jsonencode([{ key = "datasets", path = "data/sets", agent = "other" }])))
    error_message = "Extra roots reach the script as JSON, with the agent defaulting to other"
  }
}

run "five_field_schedule_is_refused" {
  command = plan

  variables {
    agent_id       = "agent-123"
    dashboard_url  = "https://storage.example.com"
    enrollment_key = "sek_test"
    schedule       = "*/15 * * * *"
  }

  expect_failures = [var.schedule]
}

run "url_with_a_quote_is_refused" {
  command = plan

  variables {
    agent_id       = "agent-123"
    dashboard_url  = "https://storage.example.com/'; rm -rf ~; '"
    enrollment_key = "sek_test"
  }

  expect_failures = [var.dashboard_url]
}

run "nice_out_of_range_is_refused" {
  command = plan

  variables {
    agent_id       = "agent-123"
    dashboard_url  = "https://storage.example.com"
    enrollment_key = "sek_test"
    nice           = 20
  }

  expect_failures = [var.nice]
}

run "splay_over_an_hour_is_refused" {
  command = plan

  variables {
    agent_id       = "agent-123"
    dashboard_url  = "https://storage.example.com"
    enrollment_key = "sek_test"
    splay          = 7200
  }

  expect_failures = [var.splay]
}

run "root_without_a_valid_key_is_refused" {
  command = plan

  variables {
    agent_id       = "agent-123"
    dashboard_url  = "https://storage.example.com"
    enrollment_key = "sek_test"
    roots          = [{ key = "../up", path = "x" }]
  }

  expect_failures = [var.roots]
}

run "node_runtime_path_is_passed" {
  command = plan

  variables {
    agent_id       = "agent-123"
    dashboard_url  = "https://storage.example.com"
    enrollment_key = "sek_test"
    node_runtime   = "/opt/node/bin/node"
  }

  assert {
    condition     = strcontains(coder_script.storage_reporter.script, "NODE_RUNTIME='/opt/node/bin/node'")
    error_message = "A node_runtime path reaches the script"
  }
}

run "node_runtime_that_is_neither_a_mode_nor_a_path_is_refused" {
  command = plan

  variables {
    agent_id       = "agent-123"
    dashboard_url  = "https://storage.example.com"
    enrollment_key = "sek_test"
    node_runtime   = "sometimes"
  }

  expect_failures = [var.node_runtime]
}

run "coder_inbox_turned_off" {
  command = plan

  variables {
    agent_id       = "agent-123"
    dashboard_url  = "https://storage.example.com"
    enrollment_key = "sek_test"
    coder_inbox    = false
  }

  assert {
    condition     = length(coder_env.coder_url) == 0 && length(coder_env.coder_session_token) == 0
    error_message = "With coder_inbox off, neither Coder's URL nor the owner's session token reaches the workspace"
  }

  assert {
    condition     = coder_env.enrollment_key.name == "STORAGE_ENROLLMENT_KEY"
    error_message = "With coder_inbox off the reporter is set up as before"
  }
}
