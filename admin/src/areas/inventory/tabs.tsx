import { NavLink } from 'react-router';

export function InventoryTabs() {
  return (
    <nav className="tabs" aria-label="Inventory">
      <NavLink to="/inventory" end>
        Items
      </NavLink>
      <NavLink to="/inventory/reservations">Reservations</NavLink>
    </nav>
  );
}
