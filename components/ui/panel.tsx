import Link from "next/link";
import type { ReactNode } from "react";

/** A titled card section. */
export function Panel({
  title,
  actions,
  children,
  className,
  id,
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  id?: string;
}) {
  return (
    <section className={`panel ${className ?? ""}`} id={id} aria-label={typeof title === "string" ? title : undefined}>
      {title || actions ? (
        <div className="panel-head">
          {title ? <h2>{title}</h2> : null}
          {actions ? <div className="panel-actions">{actions}</div> : null}
        </div>
      ) : null}
      {children}
    </section>
  );
}

/** One headline number with a caption; links to the page that explains it. */
export function Stat({
  label,
  children,
  href,
  sub,
  testId,
}: {
  label: string;
  children: ReactNode;
  href?: string;
  sub?: ReactNode;
  testId?: string;
}) {
  const body = (
    <>
      <span className="stat-label">{label}</span>
      <span className="stat-value">{children}</span>
      {sub ? <span className="stat-sub">{sub}</span> : null}
    </>
  );
  return href ? (
    <Link className="stat" href={href} data-testid={testId}>
      {body}
    </Link>
  ) : (
    <div className="stat" data-testid={testId}>
      {body}
    </div>
  );
}
