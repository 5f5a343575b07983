"use client";

import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type Cell,
  type ColumnDef,
  type Header,
  type RowData,
} from "@tanstack/react-table";
import { Fragment, type CSSProperties, type ReactNode, type TdHTMLAttributes, type ThHTMLAttributes } from "react";
import { Skeleton } from "./states";
import { stackedTable } from "./stacked-table";
import { Button } from "./button";

type DataAttributes = { [key: `data-${string}`]: string | boolean | undefined };

declare module "@tanstack/react-table" {
  // Type parameters must match react-table's own declaration to merge with it.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Classes of the header cell and every body cell: "num" (right-aligned), "actions", "phone-hidden". */
    className?: string;
    /** Classes of the body cells only ("muted", "mono nowrap"). */
    cellClassName?: string;
    /** Attributes of the header cell: a title, or an aria-label where the header has no text. */
    header?: ThHTMLAttributes<HTMLTableCellElement>;
    /** Attributes of one body cell from its row: a title, a data- attribute; a className here replaces the column's. */
    cell?: (row: TData) => TdHTMLAttributes<HTMLTableCellElement> & DataAttributes;
  }
}

/** A column rendered from the whole row: most tables here show rows shaped for them, not one field a column. */
export function column<T>(
  id: string,
  header: string,
  cell: (row: T) => ReactNode,
  meta?: ColumnDef<T>["meta"],
): ColumnDef<T> {
  return { id, header, cell: ({ row }) => cell(row.original), meta };
}

/** The server's order, which a header button changes; the page keeps it (in the URL), react-table only shows it. */
export type DataTableSorting = { column: string; dir: "asc" | "desc"; onSort: (column: string) => void };

const classes = (...names: (string | undefined)[]) => names.filter(Boolean).join(" ") || undefined;

function HeaderCell<T>({ header, sorting }: { header: Header<T, unknown>; sorting?: DataTableSorting }) {
  const meta = header.column.columnDef.meta;
  const label = flexRender(header.column.columnDef.header, header.getContext());
  const active = sorting?.column === header.column.id;
  const dir = sorting?.dir === "asc" ? "ascending" : "descending";
  return (
    <th
      {...meta?.header}
      className={classes(meta?.className, meta?.header?.className)}
      aria-sort={active ? dir : undefined}
    >
      {sorting && header.column.getCanSort() ? (
        <Button
          variant="bare"
          className="sort-button"
          data-active={active}
          onClick={() => sorting.onSort(header.column.id)}
        >
          {label}
          <span aria-hidden>{active ? (sorting.dir === "asc" ? "▲" : "▼") : "↕"}</span>
        </Button>
      ) : (
        label
      )}
    </th>
  );
}

function BodyCell<T>({ cell }: { cell: Cell<T, unknown> }) {
  const meta = cell.column.columnDef.meta;
  const props = meta?.cell?.(cell.row.original);
  return (
    <td {...props} className={props?.className ?? classes(meta?.className, meta?.cellClassName)}>
      {flexRender(cell.column.columnDef.cell, cell.getContext())}
    </td>
  );
}

/**
 * Every table of the dashboard: react-table renders the columns; the page keeps the data, its order and its pages.
 * `stacked`: the number of figure columns after the first, which a phone shows under the first cell instead of a
 * table wider than the screen. `empty`: shown instead of the table when there are no rows, or under its header
 * with `emptyUnderHeader` (a filtered list whose columns stay). `busy`: a refresh is under way (aria-busy on the
 * wrap); `stale`: the rows shown are the previous page's, dimmed until the next arrives.
 */
export function DataTable<T>({
  data,
  columns,
  rowId,
  testId,
  stacked,
  wrap = true,
  wrapStyle,
  wrapTitle,
  loading,
  loadingHeight,
  empty,
  emptyUnderHeader,
  busy,
  stale,
  sorting,
  rowProps,
  rowDetail,
  children,
}: {
  data: readonly T[];
  // Columns of differing value types share only ColumnDef<T, any> (react-table's own advice): unknown rejects them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<T, any>[];
  rowId: (row: T) => string;
  testId: string;
  stacked?: number;
  /** false: the table sits straight in its panel (which scrolls it on a phone) rather than in a .table-wrap. */
  wrap?: boolean;
  wrapStyle?: CSSProperties;
  wrapTitle?: string;
  loading?: boolean;
  loadingHeight?: number;
  empty?: ReactNode;
  emptyUnderHeader?: boolean;
  busy?: boolean;
  stale?: boolean;
  sorting?: DataTableSorting;
  /** Attributes of a row's <tr>, by which tests and scripts find it (data-email, data-state). */
  rowProps?: (row: T) => DataAttributes;
  /** A row opened to its details: a full-width row under it. */
  rowDetail?: (row: T) => ReactNode;
  /** Under the table, inside its scrolling wrap (a note on what the rows leave out). */
  children?: ReactNode;
}) {
  // TanStack Table hands back fresh functions each render; nothing here is memoized (no React Compiler).
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: data as T[],
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: rowId,
    enableSorting: Boolean(sorting),
    manualSorting: true,
    state: sorting ? { sorting: [{ id: sorting.column, desc: sorting.dir === "desc" }] } : {},
  });
  if (loading) return <Skeleton height={loadingHeight} />;
  const none = data.length === 0;
  if (none && empty !== undefined && !emptyUnderHeader) return <>{empty}</>;

  const layout: { className: string; style?: CSSProperties } =
    stacked === undefined ? { className: "table" } : stackedTable(stacked);
  const body = (
    <table
      className={layout.className}
      style={stale ? { ...layout.style, opacity: 0.6 } : layout.style}
      data-testid={testId}
      aria-busy={wrap ? undefined : busy}
    >
      <thead>
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {group.headers.map((h) => (
              <HeaderCell key={h.id} header={h} sorting={sorting} />
            ))}
          </tr>
        ))}
      </thead>
      <tbody>
        {table.getRowModel().rows.map((row) => {
          const detail = rowDetail?.(row.original);
          return (
            <Fragment key={row.id}>
              <tr {...rowProps?.(row.original)}>
                {row.getVisibleCells().map((cell) => (
                  <BodyCell key={cell.id} cell={cell} />
                ))}
              </tr>
              {detail ? (
                <tr>
                  <td colSpan={columns.length}>{detail}</td>
                </tr>
              ) : null}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
  return (
    <>
      {wrap ? (
        <div className="table-wrap" style={wrapStyle} title={wrapTitle} aria-busy={busy}>
          {body}
          {children}
        </div>
      ) : (
        body
      )}
      {none && emptyUnderHeader ? empty : null}
    </>
  );
}
