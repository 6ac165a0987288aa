import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { type ColumnWindow, columnWindow } from './grid-model';

interface ColumnLayout {
  count: number;
  columnWidth: number;
  firstColumnWidth: number;
}

const holds = (outer: ColumnWindow, inner: ColumnWindow) =>
  outer.first <= inner.first && outer.last >= inner.last;

/**
 * The day columns a grid draws (ADR 67): those in its scroller's view and a few either side,
 * followed as the scroller moves sideways or changes size.
 *
 * Before the scroller has reported, and again whenever the columns change (`columnsKey`: another
 * range, view or width), the window is worked out from where the grid will be scrolled to
 * (`openAt`, px across) and the browser window's width. That is never narrower than the scroller,
 * so the first render draws every column that shows. A report then re-renders only when it needs a
 * column the drawn window lacks: a few columns too many cost less than drawing every row again.
 */
export function useColumnWindow(
  scrollRef: RefObject<HTMLElement | null>,
  layout: ColumnLayout,
  columnsKey: string,
  openAt: number,
): ColumnWindow {
  const { count, columnWidth, firstColumnWidth } = layout;
  const [reported, setReported] = useState<{ key: string; window: ColumnWindow } | null>(null);
  let shown: ColumnWindow;
  if (reported?.key === columnsKey) {
    shown = reported.window;
  } else {
    const width = window.innerWidth;
    const furthest = Math.max(0, firstColumnWidth + count * columnWidth - width);
    shown = columnWindow(Math.min(openAt, furthest), width, { count, columnWidth, firstColumnWidth });
  }

  const drawn = useRef({ key: columnsKey, window: shown });
  useLayoutEffect(() => {
    drawn.current = { key: columnsKey, window: shown };
  });
  useEffect(() => {
    const scroller = scrollRef.current;
    if (!scroller) return;
    const update = () => {
      const needed = columnWindow(scroller.scrollLeft, scroller.clientWidth, {
        count,
        columnWidth,
        firstColumnWidth,
      });
      const current = drawn.current;
      if (current.key === columnsKey && holds(current.window, needed)) return;
      setReported({ key: columnsKey, window: needed });
    };
    scroller.addEventListener('scroll', update, { passive: true });
    const observer = new ResizeObserver(update);
    observer.observe(scroller);
    return () => {
      scroller.removeEventListener('scroll', update);
      observer.disconnect();
    };
  }, [scrollRef, columnsKey, count, columnWidth, firstColumnWidth]);
  return shown;
}
