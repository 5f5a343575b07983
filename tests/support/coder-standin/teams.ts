// Coder's organizations and groups, as its source describes them (codersdk/organizations.go, codersdk/groups.go,
// enterprise/coderd/coderd.go's routes, enterprise/coderd/groups.go): GET /api/v2/organizations answers the
// organizations as a JSON array (not paged); GET /api/v2/organizations/{organization}/groups answers that
// organization's groups as an array, each with its members inline (ReducedUser) and total_member_count, the
// "Everyone" group's id being the organization's own. Groups are a paid feature: the enterprise build without the
// license answers 403 "Template RBAC is a Premium feature. Contact sales!" (RequireFeatureMW), the open-source build
// has no such route (404 "Route not found."). The organization parameter is a UUID or a name (400 "Invalid UUID" is
// not answered for names), an unknown one 404. A token whose user may not read groups is refused with httpapi's
// Forbidden shape. Both need a session token, 401 without.
import type http from "node:http";
import { sendCoderError, sendJson, type CoderHandler } from "./server";

export type CoderOrganization = { id: string; name: string; display_name: string; is_default?: boolean };
export type CoderGroup = {
  id: string;
  name: string;
  display_name: string;
  organization_id: string;
  /** Usernames; the stand-in fills in the rest of each ReducedUser. */
  members: string[];
  source?: "user" | "oidc";
};

export type CoderTeams = {
  handler: CoderHandler;
  organizations: CoderOrganization[];
  groups: CoderGroup[];
  /** "premium": groups answered; "unlicensed": the enterprise build without the license; "oss": no group route. */
  edition: { current: "premium" | "unlicensed" | "oss" };
  /** Tokens whose user may not read groups. */
  noGroupRead: Set<string>;
  requests: string[];
};

function sessionToken(req: http.IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith("Bearer ")) return header.slice(7);
  return req.headers["coder-session-token"] as string | undefined;
}

const organizationShape = (o: CoderOrganization) => ({
  id: o.id,
  name: o.name,
  display_name: o.display_name,
  description: "",
  icon: "",
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-01T00:00:00Z",
  is_default: o.is_default ?? false,
});

const reducedUser = (username: string) => ({
  id: `00000000-0000-4000-8000-${Buffer.from(username).toString("hex").slice(0, 12).padEnd(12, "0")}`,
  username,
  name: "",
  email: `${username}@example.com`,
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-01T00:00:00Z",
  last_seen_at: "2026-01-01T00:00:00Z",
  status: "active",
  login_type: "password",
  theme_preference: "",
  avatar_url: "",
});

export function coderTeams(options: {
  tokens: string[];
  organizations: CoderOrganization[];
  groups?: CoderGroup[];
}): CoderTeams {
  const tokens = new Set(options.tokens);
  const teams: Omit<CoderTeams, "handler"> = {
    organizations: options.organizations,
    groups: options.groups ?? [],
    edition: { current: "premium" },
    noGroupRead: new Set(),
    requests: [],
  };

  function groupsOf(res: http.ServerResponse, token: string, param: string) {
    if (teams.edition.current === "oss") return sendCoderError(res, 404, "Route not found.");
    if (teams.edition.current === "unlicensed") {
      return sendCoderError(res, 403, "Template RBAC is a Premium feature. Contact sales!");
    }
    const org = teams.organizations.find((o) => o.id === param || o.name === param);
    if (!org) return sendCoderError(res, 404, "Resource not found or you do not have access to this resource");
    if (teams.noGroupRead.has(token)) {
      return sendCoderError(
        res,
        403,
        "Forbidden.",
        "You don't have permission to view this content. If you believe this is a mistake, please contact your administrator or try signing in with different credentials.",
      );
    }
    const org_groups = teams.groups.filter((g) => g.organization_id === org.id);
    sendJson(
      res,
      200,
      org_groups.map((g) => ({
        id: g.id,
        name: g.name,
        display_name: g.display_name,
        organization_id: g.organization_id,
        members: g.members.map(reducedUser),
        total_member_count: g.members.length,
        avatar_url: "",
        quota_allowance: 0,
        source: g.source ?? "user",
        organization_name: org.name,
        organization_display_name: org.display_name,
      })),
    );
  }

  const handler: CoderHandler = (req, res, url) => {
    const groups = url.pathname.match(/^\/api\/v2\/organizations\/([^/]+)\/groups\/?$/);
    if (req.method !== "GET" || (url.pathname !== "/api/v2/organizations" && !groups)) return false;
    teams.requests.push(`${url.pathname}${url.search}`);
    const token = sessionToken(req);
    if (!token) sendCoderError(res, 401, "Cookie or header must be provided.");
    else if (!tokens.has(token)) sendCoderError(res, 401, "API key is invalid.");
    else if (groups) groupsOf(res, token, decodeURIComponent(groups[1]));
    else sendJson(res, 200, teams.organizations.map(organizationShape));
    return true;
  };
  return { handler, ...teams };
}
