import { json } from "@/lib/http/response";
import { MODULES_V1_PATH, type discoveryResponse } from "@/lib/terraform/module";
import type { z } from "zod";

// Terraform's service discovery: a module source "<this host>/coder/storage-reporter/coder" makes `terraform init`
// ask here, at the host's root, where the host's module registry is. No sign-in: Terraform sends no credentials.
export function GET() {
  return json<z.infer<typeof discoveryResponse>>({ "modules.v1": MODULES_V1_PATH });
}
