import Link from "next/link";
import { AdminContacts } from "@/components/auth/admin-contacts";

/** A page the signed-in user's role may not open (403, from requirePage): what it needs and whom to ask. */
export default function Forbidden() {
  return (
    <main className="main">
      <section className="panel empty" data-testid="forbidden">
        <h1>Admins only</h1>
        <p>This page needs the admin role, and you are signed in as a viewer.</p>
        <AdminContacts />
        <p>
          <Link href="/">Back to the fleet overview</Link>
        </p>
      </section>
    </main>
  );
}
