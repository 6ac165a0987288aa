import { useVirtualizer } from '@tanstack/react-virtual';
import { type Key, type ReactNode, useRef } from 'react';

/**
 * Tables and lists longer than this draw only the rows in view (docs/decisions/0049-long-tables-draw-the-rows-in-view.md,
 * 0060 for lists). A thousand accounts drawn at once were 54,000 elements: seconds of one task
 * before the page answered. Up to this many rows every row is in the page, as before.
 */
export const WINDOWED_FROM_ROWS = 100;

/** Rows drawn beyond the visible ones on each side, so a short scroll or Tab finds them ready. */
const OVERSCAN = 6;

interface RowWindowOptions {
  count: number;
  /**
   * How many rows the whole list holds when only its first pages are loaded (`count` of them): a list
   * that will be long is windowed from its first page, so it opens the way it scrolls.
   */
  total?: number;
  /** a row's usual height in pixels, until it is measured */
  estimateRowHeight: number;
  /**
   * The row's own key (an id), which its measured height is remembered by: by position, after a
   * new search or sort a row would start at the height of the one that stood there before.
   */
  rowKey: (index: number) => Key;
}

/**
 * Which rows of a table, or items of a list, to draw, the same way the staff grid windows its rows
 * (TanStack Virtual), but keeping the browser's own layout: the rows above and below the window
 * are stood in for by one empty row (`SpacerRow`) or item (`SpacerItem`) each, so a table's column
 * widths still come from the rows drawn. Rows are measured as drawn (an address that wraps makes a
 * taller row).
 *
 * `scrollRef` goes on the element that scrolls (the table's or list's container), `measureRow` on
 * each row with `data-index`. `rows` is every index when the list is short enough to draw whole.
 */
export function useRowWindow({ count, total, estimateRowHeight, rowKey }: RowWindowOptions) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const windowed = Math.max(count, total ?? 0) > WINDOWED_FROM_ROWS;
  const virtualizer = useVirtualizer({
    count: windowed ? count : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimateRowHeight,
    getItemKey: rowKey,
    overscan: OVERSCAN,
    // the first render, before the container is measured, draws about what a phone shows (a
    // table's container is at most 70% of the window's height; a popover's list is shorter)
    // rather than nothing
    initialRect: { width: 0, height: 600 },
  });
  if (!windowed) {
    return {
      windowed,
      scrollRef,
      rows: Array.from({ length: count }, (_, index) => index),
      before: 0,
      after: 0,
      measureRow: undefined,
    };
  }
  const items = virtualizer.getVirtualItems();
  const first = items[0];
  const last = items[items.length - 1];
  return {
    windowed,
    scrollRef,
    rows: items.map((item) => item.index),
    before: first ? first.start : 0,
    after: last ? virtualizer.getTotalSize() - last.end : 0,
    measureRow: virtualizer.measureElement,
  };
}

/** An empty row standing in for the rows outside the window (not a row to assistive technology). */
export function SpacerRow({ height, columns }: { height: number; columns: number }): ReactNode {
  if (height <= 0) return null;
  return (
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an empty row holds nothing focusable; hidden, it is not read as a row
    <tr aria-hidden="true" data-slot="table-spacer" style={{ height }}>
      <td colSpan={columns} className="p-0" />
    </tr>
  );
}

/** An empty list item standing in for the items outside the window (not an item to assistive technology). */
export function SpacerItem({ height }: { height: number }): ReactNode {
  if (height <= 0) return null;
  return <li aria-hidden="true" data-slot="list-spacer" style={{ height }} />;
}

/**
 * What an item of a windowed list carries: its place, for measuring it as drawn, and, when the list
 * is windowed, its place in the whole list for assistive technology (the items not drawn are not
 * in the page to be counted). A list's items are measured whole, so the space between them belongs
 * inside each item (padding), not between them (a gap or a margin).
 */
export function windowedItemProps(
  rowWindow: ReturnType<typeof useRowWindow>,
  position: number,
  count: number,
) {
  return {
    'data-index': position,
    ref: rowWindow.measureRow,
    ...(rowWindow.windowed ? { 'aria-setsize': count, 'aria-posinset': position + 1 } : {}),
  };
}
