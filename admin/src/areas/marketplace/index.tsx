import { Route, Routes } from 'react-router';
import { FeedPage } from './feed-page.tsx';
import { ItemPage } from './item-page.tsx';

export default function MarketplaceArea() {
  return (
    <Routes>
      <Route index element={<FeedPage />} />
      <Route path="*" element={<ItemPage />} />
    </Routes>
  );
}
