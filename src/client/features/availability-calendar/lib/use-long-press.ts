import { type PointerEvent, useCallback, useEffect, useRef } from 'react';

export const LONG_PRESS_MS = 500;

/**
 * Touch long-press (500 ms). Returns pointer handlers to spread on the element and a
 * `consumeClick()` that is true once after a long press fired, so the click that may follow is ignored.
 */
export function useLongPress(onLongPress: () => void, delay = LONG_PRESS_MS) {
  const timer = useRef<number | undefined>(undefined);
  const fired = useRef(false);
  const start = useRef<{ x: number; y: number } | null>(null);

  const clear = useCallback(() => {
    if (timer.current !== undefined) window.clearTimeout(timer.current);
    timer.current = undefined;
    start.current = null;
  }, []);

  useEffect(() => clear, [clear]);

  const onPointerDown = useCallback(
    (event: PointerEvent) => {
      if (event.pointerType !== 'touch') return;
      fired.current = false;
      start.current = { x: event.clientX, y: event.clientY };
      timer.current = window.setTimeout(() => {
        fired.current = true;
        timer.current = undefined;
        onLongPress();
      }, delay);
    },
    [delay, onLongPress],
  );

  const onPointerMove = useCallback(
    (event: PointerEvent) => {
      // a finger that moves is scrolling, not pressing
      if (start.current && Math.hypot(event.clientX - start.current.x, event.clientY - start.current.y) > 10)
        clear();
    },
    [clear],
  );

  const consumeClick = useCallback(() => {
    const wasLongPress = fired.current;
    fired.current = false;
    return wasLongPress;
  }, []);

  return {
    handlers: {
      onPointerDown,
      onPointerMove,
      onPointerUp: clear,
      onPointerCancel: clear,
      onPointerLeave: clear,
      onContextMenu: (event: { preventDefault: () => void }) => {
        if (fired.current || timer.current !== undefined) event.preventDefault();
      },
    },
    consumeClick,
  };
}
