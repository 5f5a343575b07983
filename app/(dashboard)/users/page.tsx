import type { Metadata } from "next";
import { TokensPanel } from "@/components/users/tokens-panel";
import { UsersPanel } from "@/components/users/users-panel";
import { requirePage } from "@/lib/auth/page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Users and tokens" };

export default async function UsersPage() {
  const me = await requirePage("admin");
  return (
    <div className="stack">
      <div className="page-head">
        <div>
          <h1>Users and tokens</h1>
          <p className="sub">Who may sign in and as what; API tokens for scripts.</p>
        </div>
      </div>
      <UsersPanel myEmail={me.label} />
      <TokensPanel />
    </div>
  );
}
