import type * as React from 'react';
import { useEffect, useState } from 'react';
import type { ToastVariant } from './toast';

/** One toast visible at a time; a new one replaces the old. */
const TOAST_LIMIT = 1;
/** How long a dismissed toast stays mounted for its closing animation. */
const REMOVE_DELAY = 1000;

export interface ToastOptions {
  title?: React.ReactNode;
  description?: React.ReactNode;
  variant?: ToastVariant;
  /** Display time in ms; the provider default (5000) when left out. */
  duration?: number;
}

export interface ToastItem extends ToastOptions {
  id: string;
  open: boolean;
}

let state: ToastItem[] = [];
const listeners = new Set<(toasts: ToastItem[]) => void>();
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();
let counter = 0;

function emit(next: ToastItem[]) {
  state = next;
  for (const listener of listeners) listener(state);
}

function scheduleRemoval(id: string) {
  if (removeTimers.has(id)) return;
  removeTimers.set(
    id,
    setTimeout(() => {
      removeTimers.delete(id);
      emit(state.filter((t) => t.id !== id));
    }, REMOVE_DELAY),
  );
}

/** Closes one toast, or every toast when no id is given. */
export function dismiss(id?: string) {
  emit(
    state.map((t) => {
      if (id === undefined || t.id === id) {
        scheduleRemoval(t.id);
        return { ...t, open: false };
      }
      return t;
    }),
  );
}

/** Shows a toast; returns handles to dismiss or update it. */
export function toast(options: ToastOptions) {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  emit([{ ...options, id, open: true }, ...state].slice(0, TOAST_LIMIT));
  return {
    id,
    dismiss: () => dismiss(id),
    update: (next: ToastOptions) => emit(state.map((t) => (t.id === id ? { ...t, ...next } : t))),
  };
}

export function useToast() {
  const [toasts, setToasts] = useState<ToastItem[]>(state);
  useEffect(() => {
    listeners.add(setToasts);
    return () => {
      listeners.delete(setToasts);
    };
  }, []);
  return { toasts, toast, dismiss };
}
