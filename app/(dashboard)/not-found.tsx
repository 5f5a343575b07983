import Link from "next/link";

export default function NotFound() {
  return (
    <section className="panel empty">
      <h1>Not found</h1>
      <p>There is nothing at this address. The workspace or agent may never have reported.</p>
      <p>
        <Link href="/">Back to the fleet overview</Link> · <Link href="/workspaces">All workspaces</Link>
      </p>
    </section>
  );
}
