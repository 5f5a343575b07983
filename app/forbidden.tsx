import { ForbiddenReason } from "@/components/auth/forbidden-reason";

/** A page the signed-in user's role may not open (403, from requirePage): what it needs and whom to ask. */
export default function Forbidden() {
  return (
    <main className="main">
      <section className="panel empty" data-testid="forbidden">
        <ForbiddenReason />
      </section>
    </main>
  );
}
