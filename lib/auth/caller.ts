import type { Role } from "@/lib/validations/auth";

/** Who is calling: a signed-in user, or a dashboard API token. */
export type Caller =
  | { kind: "user"; id: string; label: string; name: string; role: Role }
  | { kind: "token"; id: string; label: string; role: Role };
