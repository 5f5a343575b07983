import type { Metadata } from "next";
import { TokensPanel } from "@/components/users/tokens-panel";
import { UsersPanel } from "@/components/users/users-panel";
import { requirePage } from "@/lib/auth/page";
import { PageHeader } from "@/components/ui/page-header";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Users and tokens" };

export default async function UsersPage() {
  const me = await requirePage("admin");
  return (
    <div className="stack">
      <PageHeader title="Users and tokens" sub="Who may sign in and as what; API tokens for scripts." />
      <UsersPanel myEmail={me.label} />
      <TokensPanel />
    </div>
  );
}
