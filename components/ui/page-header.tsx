import type { ReactNode } from "react";

/**
 * A page's heading: where it sits (`trail`, "Workspaces /"), its title, a line under it, and actions beside it,
 * pushed to the far end with `actionsAtEnd` (otherwise they follow the title, wrapping under it on a phone).
 */
export function PageHeader({
  title,
  sub,
  trail,
  children,
  actions,
  actionsAtEnd,
}: {
  title: ReactNode;
  sub?: ReactNode;
  trail?: ReactNode;
  /** More under the title (links, notes). */
  children?: ReactNode;
  actions?: ReactNode;
  actionsAtEnd?: boolean;
}) {
  return (
    <div className="page-head">
      <div>
        {trail ? <p className="sub small">{trail}</p> : null}
        <h1>{title}</h1>
        {sub ? <p className="sub">{sub}</p> : null}
        {children}
      </div>
      {actions && actionsAtEnd ? <div className="spacer" /> : null}
      {actions}
    </div>
  );
}
