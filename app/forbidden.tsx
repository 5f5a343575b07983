import { ForbiddenReason } from "@/components/auth/forbidden-reason";
import { DashboardShell } from "@/components/layout/dashboard-shell";
import { shellUser } from "@/lib/auth/page";

/**
 * A page the signed-in user's role may not open (403, from requirePage): what it needs and whom to ask, with the
 * header and navigation of every page (the refusal comes from the dashboard's layout, so Next draws this outside it).
 */
export default async function Forbidden() {
  const user = await shellUser();
  const reason = (
    <section className="panel empty" data-testid="forbidden">
      <ForbiddenReason />
    </section>
  );
  return user ? <DashboardShell user={user}>{reason}</DashboardShell> : <main className="main">{reason}</main>;
}
