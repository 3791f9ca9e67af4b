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
  /** The table's accessible name. */
  label?: string;
  /** In a `table-wrap` box that scrolls sideways when the columns are wider than the card. */
  wrap?: boolean;
}

/** What a read shows until it has data: loading, then its error; with data, `children(data)`. */
export function QueryView<D>({
  query,
  loading,
  children,
}: {
  query: UseQueryResult<D>;
  /** The loading line's words. */
  loading?: string;
  children: (data: D) => ReactNode;
}) {
  if (query.isPending) return <Loading label={loading} />;
  if (query.isError) return <ErrorNote error={query.error} />;
  return <>{children(query.data)}</>;
}

/** A table of `records`, with its header cells `head` and a row per record. */
export function Table<T>({
  records,
  head,
  row,
  label,
  wrap,
}: {
  records: T[];
  head: ReactNode;
  row: (record: T) => ReactNode;
  label?: string;
  wrap?: boolean;
}) {
  const table = (
    <table aria-label={label}>
      <thead>
        <tr>{head}</tr>
      </thead>
      <tbody>{records.map(row)}</tbody>
    </table>
  );
  return wrap ? <div className="table-wrap">{table}</div> : table;
}

export function QueryTable<D, T>({ list, rows, empty, ...table }: TableProps<D, T>) {
  return (
    <QueryView query={list}>
      {(data) => {
        const records = rows(data);
        if (records.length === 0) return <Empty>{empty}</Empty>;
        return <Table records={records} {...table} />;
      }}
    </QueryView>
  );
}

interface PageProps {
  offset: number;
  limit: number;
  onPage: (offset: number) => void;
}

/** One page of records, with previous / next under the table while there is data. */
export function PagedTable<D extends { count: number }, T>({
  offset,
  limit,
  onPage,
  ...table
}: TableProps<D, T> & PageProps) {
  return (
    <>
      <QueryTable {...table} />
      <QueryPager list={table.list} rows={table.rows} offset={offset} limit={limit} onPage={onPage} />
    </>
  );
}

/** Previous / next under a list that is not a table (cards), while its read has data. */
export function QueryPager<D extends { count: number }>({
  list,
  rows,
  offset,
  limit,
  onPage,
}: PageProps & { list: UseQueryResult<D>; rows: (data: D) => unknown[] }) {
  if (!list.data) return null;
  return (
    <Pager offset={offset} limit={limit} count={list.data.count} shown={rows(list.data).length} onChange={onPage} />
  );
}

/** The header cell over a column of row buttons: named for screen readers, blank on screen. */
export function ActionsHead() {
  return (
    <th>
      <span className="sr-only">Actions</span>
    </th>
  );
}
