import { Navigate, Route, Routes } from 'react-router';
import { ItemDetail, ItemList } from './items.tsx';
import { CheckoutSessions, Licenses } from './licenses.tsx';

/** The marketplace role's vendor side: catalog items and versions, licenses, checkout sessions. */
export default function VendorArea() {
  return (
    <Routes>
      <Route index element={<Navigate to="items" replace />} />
      <Route path="items" element={<ItemList />} />
      <Route path="items/:id" element={<ItemDetail />} />
      <Route path="licenses" element={<Licenses />} />
      <Route path="checkouts" element={<CheckoutSessions />} />
    </Routes>
  );
}
