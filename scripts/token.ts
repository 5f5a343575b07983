// npm run token -- create --name NAME --role viewer|admin [--expires-in-days N]   prints the token, once
// npm run token -- list                                                           id, name, role, state
// npm run token -- revoke ID
// Dashboard API tokens for scripts (Authorization: Bearer <token> on /api/v1/*), on the configured database
// (DATABASE_URL, or the embedded one in STORAGE_DATA_DIR: stop the app first, the embedded folder is locked).
import { parseArgs } from "node:util";
import { listApiTokens } from "@/lib/auth/api-tokens";
import { createApiToken, revokeApiToken } from "@/lib/services/api-tokens";
import { ownerForToken } from "@/lib/auth/token-owner";
import { getDatabase } from "@/lib/db";
import { createTokenRequest } from "@/lib/validations/auth";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { name: { type: "string" }, role: { type: "string" }, "expires-in-days": { type: "string" } },
});
const [command, id] = positionals;
const usage = "usage: npm run token -- create --name NAME --role viewer|admin [--expires-in-days N] | list | revoke ID";
const who = { actor: { type: "system" as const, label: "token CLI" } };

async function main(): Promise<number> {
  if (!["create", "list", "revoke"].includes(command ?? "")) {
    console.error(usage);
    return 2;
  }
  const database = await getDatabase();
  const db = database.db;
  try {
    if (command === "create") {
      const parsed = createTokenRequest.safeParse({
        name: values.name,
        role: values.role,
        expiresInDays: values["expires-in-days"] === undefined ? undefined : Number(values["expires-in-days"]),
      });
      if (!parsed.success) {
        console.error(`${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}\n${usage}`);
        return 2;
      }
      const { token, info } = await createApiToken(db, await ownerForToken(db), parsed.data, who);
      console.error(
        `Created API token "${info.name}" (${info.role}, id ${info.id}, ${info.expiresAt ? `expires ${info.expiresAt}` : "no expiry"}).`,
      );
      console.error("It is shown only this once: store it now.");
      // The token alone on stdout, so that `TOKEN=$(npm run -s token -- create ...)` works.
      console.log(token);
    } else if (command === "list") {
      for (const t of await listApiTokens(db)) {
        const state = t.revoked ? "revoked" : t.expiresAt && new Date(t.expiresAt) < new Date() ? "expired" : "active";
        console.log(
          [
            t.id,
            t.name,
            t.role,
            state,
            t.start ? `${t.start}…` : "",
            t.expiresAt ?? "no expiry",
            t.lastUsedAt ?? "never used",
          ].join("\t"),
        );
      }
    } else {
      if (!id) {
        console.error(usage);
        return 2;
      }
      const info = await revokeApiToken(db, id, who);
      console.error(`Revoked API token "${info.name}" (${id}).`);
    }
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`token: ${(err as Error).message}`);
    process.exit(1);
  },
);
