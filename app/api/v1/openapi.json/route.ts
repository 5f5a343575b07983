import { json } from "@/lib/http/response";
import { buildOpenApiDocument } from "@/lib/openapi/document";

// Built once, at build time: the document changes only with the code.
export const dynamic = "force-static";

/** GET /api/v1/openapi.json: the API's OpenAPI 3.1 description (public: it describes, it holds no data). */
export async function GET() {
  return json(buildOpenApiDocument());
}
