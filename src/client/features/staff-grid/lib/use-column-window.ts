import { type RefObject, useLayoutEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { COLUMN_OVERSCAN, type ColumnWindow, columnWindow } from './grid-model';

interface ColumnLayout {
  count: number;
  columnWidth: number;
  firstColumnWidth: number;
}

const holds = (outer: ColumnWindow, inner: ColumnWindow) =>
  outer.first <= inner.first && outer.last >= inner.last;

/** Both windows and the columns between them. */
const spanning = (a: ColumnWindow, b: ColumnWindow): ColumnWindow => ({
  first: Math.min(a.first, b.first),
  last: Math.max(a.last, b.last),
});

/** The columns on either side of those in view that must be drawn already: below it, a render is due. */
const MARGIN = 1;

/**
 * The day columns a grid draws (ADR 67): those in its scroller's view and COLUMN_OVERSCAN either
 * side, followed as the scroller moves sideways, changes size or takes focus.
 *
 * The first render of each set of columns (another range, starting at `firstDay`, view or width)
 * works the window out from where the grid opens (`openAt`, px across, which the grid scrolls to
 * before the scroller is measured) and the browser window's width, never narrower than the scroller's.
 * The scroller is then measured before the browser paints, and again at every scroll, resize and
 * focus. A measure re-renders only when fewer than MARGIN columns beyond the view are drawn, so
 * a sideways scroll redraws the rows every few columns, not at every one. The redraw happens within
 * the scroll event (`flushSync`, as TanStack Virtual does for the rows); the browser may still paint
 * a scrolled position before the event arrives (the listener is passive, as a scroll's must be), so
 * a fast flick can show the edge's cells a frame late, as it can the rows.
 * A cell that takes focus has its neighbours drawn at once, before the next key press can move on,
 * and stays drawn while it has focus, however far the grid is scrolled from it; `aria-colindex`
 * (the cells' column numbers, from 2) says which column it is.
 */
export function useColumnWindow(
  scrollRef: RefObject<HTMLElement | null>,
  layout: ColumnLayout,
  firstDay: string | undefined,
  openAt: number,
): ColumnWindow {
  const { count, columnWidth, firstColumnWidth } = layout;
  const columnsKey = `${firstDay}:${count}:${columnWidth}:${firstColumnWidth}`;
  const [measured, setMeasured] = useState<{ key: string; window: ColumnWindow | null }>({
    key: columnsKey,
    window: null,
  });
  // another set of columns: what was measured for the last one says nothing about these
  if (measured.key !== columnsKey) setMeasured({ key: columnsKey, window: null });
  let shown: ColumnWindow;
  if (measured.key === columnsKey && measured.window) {
    shown = measured.window;
  } else {
    const width = window.innerWidth;
    const furthest = Math.max(0, firstColumnWidth + count * columnWidth - width);
    shown = columnWindow(Math.min(openAt, furthest), width, layout, COLUMN_OVERSCAN);
  }

  const drawn = useRef(shown);
  useLayoutEffect(() => {
    drawn.current = shown;
  });
  // the column of the cell that has focus, kept drawn however far the grid is scrolled from it
  const focusedColumn = useRef<number | undefined>(undefined);
  useLayoutEffect(() => {
    const scroller = scrollRef.current;
    if (!scroller) return;
    const columns = { count, columnWidth, firstColumnWidth };
    focusedColumn.current = undefined;
    const update = (sync: boolean) => {
      const focused = focusedColumn.current;
      const { scrollLeft, clientWidth } = scroller;
      let needed = columnWindow(scrollLeft, clientWidth, columns, MARGIN);
      let wanted = columnWindow(scrollLeft, clientWidth, columns, COLUMN_OVERSCAN);
      if (focused !== undefined && focused >= 0 && focused < count) {
        const around = (spread: number) => ({
          first: Math.max(0, focused - spread),
          last: Math.min(count - 1, focused + spread),
        });
        needed = spanning(needed, around(MARGIN));
        wanted = spanning(wanted, around(COLUMN_OVERSCAN));
      }
      if (holds(drawn.current, needed)) return;
      const remember = () =>
        setMeasured((previous) =>
          previous.key === columnsKey ? { key: columnsKey, window: wanted } : previous,
        );
      if (sync) flushSync(remember);
      else remember();
    };
    // drawn within the event, as the row window does
    const onScroll = () => update(true);
    const onFocus = (event: FocusEvent) => {
      const cell = event.target instanceof Element ? event.target.closest('[aria-colindex]') : null;
      focusedColumn.current = cell ? Number(cell.getAttribute('aria-colindex')) - 2 : undefined;
      update(true);
    };
    const onBlur = (event: FocusEvent) => {
      if (!(event.relatedTarget instanceof Node && scroller.contains(event.relatedTarget))) {
        focusedColumn.current = undefined;
      }
    };
    // measured before the first paint of these columns, so none of those in view is missing
    update(false);
    scroller.addEventListener('scroll', onScroll, { passive: true });
    scroller.addEventListener('focusin', onFocus);
    scroller.addEventListener('focusout', onBlur);
    const observer = new ResizeObserver(onScroll);
    observer.observe(scroller);
    return () => {
      scroller.removeEventListener('scroll', onScroll);
      scroller.removeEventListener('focusin', onFocus);
      scroller.removeEventListener('focusout', onBlur);
      observer.disconnect();
    };
  }, [scrollRef, columnsKey, count, columnWidth, firstColumnWidth]);
  return shown;
}
