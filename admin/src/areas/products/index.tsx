import { Route, Routes } from 'react-router';
import { ProductList } from './product-list.tsx';
import { ProductEditor } from './product-editor.tsx';

export default function ProductsArea() {
  return (
    <Routes>
      <Route index element={<ProductList />} />
      <Route path="new" element={<ProductEditor />} />
      <Route path=":id" element={<ProductEditor />} />
    </Routes>
  );
}
