import { Navigate, Route, Routes } from 'react-router';
import { PageHeader } from '../../components/ui.tsx';
import { Tabs } from '../../components/tabs.tsx';
import { WebhooksPage } from './webhooks.tsx';
import { WebhookDetail } from './webhook-deliveries.tsx';
import { ApiKeysPage } from './api-keys.tsx';
import { ChannelsPage, RegionsPage, ShippingPage } from './store-setup.tsx';
import { UsersPage } from './users.tsx';
import { StorePage } from './store.tsx';
import { KeyValuesPage } from './key-values.tsx';
import { NotificationsSettingsPage } from './notifications.tsx';
import { RegionEditor } from './region-editor.tsx';
import { CategoriesPage, CollectionsPage } from './catalog.tsx';
import { JobsPage } from '../jobs/jobs-page.tsx';
import { LocationsShippingPage } from './locations-shipping.tsx';
import { TaxRegionPage } from './tax-region-page.tsx';
import { TaxesPage } from './taxes.tsx';

const TABS: [string, string][] = [
  ['webhooks', 'Webhooks'],
  ['store', 'Store'],
  ['api-keys', 'API keys'],
  ['sales-channels', 'Sales channels'],
  ['regions', 'Regions'],
  ['shipping', 'Shipping options'],
  ['taxes', 'Taxes'],
  ['locations', 'Locations & shipping'],
  ['collections', 'Collections'],
  ['categories', 'Categories'],
  ['notifications', 'Notifications'],
  ['team', 'Team'],
  ['jobs', 'Jobs'],
  ['values', 'Key/value settings'],
];

export default function SettingsArea() {
  return (
    <>
      <PageHeader title="Settings" />
      <Tabs label="Settings sections" tabs={TABS.map(([to, label]) => ({ to: `/settings/${to}`, label }))} />
      <Routes>
        <Route index element={<Navigate to="webhooks" replace />} />
        <Route path="store" element={<StorePage />} />
        <Route path="webhooks" element={<WebhooksPage />} />
        <Route path="webhooks/:id" element={<WebhookDetail />} />
        <Route path="api-keys" element={<ApiKeysPage />} />
        <Route path="sales-channels" element={<ChannelsPage />} />
        <Route path="regions" element={<RegionsPage />} />
        <Route path="regions/:id" element={<RegionEditor />} />
        <Route path="shipping" element={<ShippingPage />} />
        <Route path="taxes" element={<TaxesPage />} />
        <Route path="taxes/:id" element={<TaxRegionPage />} />
        <Route path="locations" element={<LocationsShippingPage />} />
        <Route path="collections" element={<CollectionsPage />} />
        <Route path="categories" element={<CategoriesPage />} />
        <Route path="notifications" element={<NotificationsSettingsPage />} />
        <Route path="team" element={<UsersPage />} />
        <Route path="jobs" element={<JobsPage />} />
        <Route path="users" element={<Navigate to="../team" replace />} />
        <Route path="values" element={<KeyValuesPage />} />
      </Routes>
    </>
  );
}
