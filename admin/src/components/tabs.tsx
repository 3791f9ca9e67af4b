import { NavLink } from 'react-router';

/** One tab: where it leads, its words, and whether it is current only on that exact path (`end`). */
export type Tab = { to: string; label: string; end?: boolean };

/** The sections of an area as a row of links, the current one marked (customers, inventory, settings). */
export function Tabs({ label, tabs }: { label: string; tabs: readonly Tab[] }) {
  return (
    <nav className="tabs" aria-label={label}>
      {tabs.map((t) => (
        <NavLink key={t.to} to={t.to} end={t.end}>
          {t.label}
        </NavLink>
      ))}
    </nav>
  );
}
