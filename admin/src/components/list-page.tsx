import type { ReactNode } from 'react';
import { Card, PageHeader } from './ui.tsx';

/**
 * A list page as the panel shows them: its header (title, actions), what stands between it and the
 * list (the area's tabs, a note), and one card holding the filters above the list and its pager.
 */
export function ListPage({
  title,
  actions,
  intro,
  filters,
  children,
}: {
  title: string;
  actions?: ReactNode;
  intro?: ReactNode;
  filters: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <PageHeader title={title} actions={actions} />
      {intro}
      <Card>
        <search className="filters">{filters}</search>
        {children}
      </Card>
    </>
  );
}
