import { z } from "zod";
import { json } from "@/lib/http/response";
import { report } from "@/lib/report-format/schema";

export const dynamic = "force-static";

export function GET() {
  const schema = z.toJSONSchema(report, { io: "input", unrepresentable: "any" });
  return json({ ...schema, $id: "/api/v1/schema/report.json", title: "Storage report (format version 1)" });
}
