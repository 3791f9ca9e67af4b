import { Tabs } from '../../components/tabs.tsx';

const TABS = [
  { to: '/inventory', label: 'Items', end: true },
  { to: '/inventory/reservations', label: 'Reservations' },
];

export function InventoryTabs() {
  return <Tabs label="Inventory" tabs={TABS} />;
}
