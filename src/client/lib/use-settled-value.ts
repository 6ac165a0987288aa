import { useEffect, useState } from 'react';

/** `value` once it has stayed the same for `delay` ms (a search read once typing pauses). */
export function useSettledValue<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}
