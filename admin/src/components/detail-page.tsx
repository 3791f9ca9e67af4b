import type { ReactNode } from 'react';
import type { useDetailPage } from '../lib/detail-page.ts';
import { useCanWrite } from '../lib/session.tsx';
import { Card, ConfirmButton, ErrorNote, Loading, PageHeader } from './ui.tsx';

/**
 * A "new or existing" page of a resource, as lib/detail-page.ts reads it: on `new`, `newTitle`
 * over `form()` in a card; else, once read, the record's header (its title and, for who may write,
 * its delete), `form(record)` in a "Details" card, then what else the page shows (`children`).
 */
export function DetailPage<T extends { id: string }>({
  page,
  back,
  newTitle,
  title,
  remove,
  form,
  children,
}: {
  page: ReturnType<typeof useDetailPage<T>>;
  back: ReactNode;
  newTitle: string;
  title: (record: T) => ReactNode;
  /** The delete button's words; without them the page offers no delete. */
  remove?: (record: T) => { label: string; title: string; body: string };
  form: (record?: T) => ReactNode;
  children?: (record: T) => ReactNode;
}) {
  const canWrite = useCanWrite();
  if (page.creating)
    return (
      <>
        <PageHeader back={back} title={newTitle} />
        <Card>{form()}</Card>
      </>
    );
  if (page.found.isPending) return <Loading />;
  if (page.found.isError || !page.item) return <ErrorNote error={page.found.error} />;
  const record = page.item;
  const words = remove?.(record);
  return (
    <>
      <PageHeader
        back={back}
        title={title(record)}
        actions={words && canWrite && <ConfirmButton {...words} danger onConfirm={() => page.remove.mutate()} />}
      />
      {words && <ErrorNote error={page.remove.error} />}
      <Card title="Details">{form(record)}</Card>
      {children?.(record)}
    </>
  );
}
