import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Empty, ErrorNote, Loading, Pager } from './ui.tsx';

/**
 * A list's table as every list page shows it: loading, the error, `empty` when there is nothing,
 * else a row per record (`row` returns the keyed row); `PagedTable` adds the pager under it.
 */

interface TableProps<D, T> {
  list: UseQueryResult<D>;
  /** The records in the answer. */
  rows: (data: D) => T[];
  empty: ReactNode;
  /** The header cells. */
  head: ReactNode;
  row: (record: T) => ReactNode;
}

export function QueryTable<D, T>({ list, rows, empty, head, row }: TableProps<D, T>) {
  if (list.isPending) return <Loading />;
  if (list.isError) return <ErrorNote error={list.error} />;
  const records = rows(list.data);
  if (records.length === 0) return <Empty>{empty}</Empty>;
  return (
    <table>
      <thead>
        <tr>{head}</tr>
      </thead>
      <tbody>{records.map(row)}</tbody>
    </table>
  );
}

/** One page of records, with previous / next under the table while there is data. */
export function PagedTable<D extends { count: number }, T>({
  offset,
  limit,
  onPage,
  ...table
}: TableProps<D, T> & { offset: number; limit: number; onPage: (offset: number) => void }) {
  const { list, rows } = table;
  return (
    <>
      <QueryTable {...table} />
      {list.data && (
        <Pager offset={offset} limit={limit} count={list.data.count} shown={rows(list.data).length} onChange={onPage} />
      )}
    </>
  );
}
