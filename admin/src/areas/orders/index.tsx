import { Route, Routes } from 'react-router';
import { OrderList } from './order-list.tsx';
import { OrderDetail } from './order-detail.tsx';

export default function OrdersArea() {
  return (
    <Routes>
      <Route index element={<OrderList />} />
      <Route path=":id" element={<OrderDetail />} />
    </Routes>
  );
}
