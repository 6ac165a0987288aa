import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { renderWithApp } from '@/test/render';
import { toast } from './use-toast';

// the toast's 5 s and the second kept for its closing animation run on a clock the test moves
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('toasts', () => {
  test('only one is visible at a time, and it closes after 5 seconds', () => {
    renderWithApp(<p>page</p>);
    act(() => {
      toast({ title: 'First', description: 'the first message' });
    });
    expect(screen.getByText('First')).toBeVisible();

    act(() => {
      toast({ title: 'Second', variant: 'destructive', description: 'replaces the first' });
    });
    expect(screen.queryByText('First')).not.toBeInTheDocument();
    expect(screen.getByText('Second')).toBeVisible();
    expect(document.querySelectorAll('[data-slot="toast"]')).toHaveLength(1);

    act(() => vi.advanceTimersByTime(4_900));
    expect(screen.getByText('Second')).toBeVisible();
    // past 5 s, and the second it is kept for its closing animation: gone
    act(() => vi.advanceTimersByTime(1_200));
    expect(screen.queryByText('Second')).not.toBeInTheDocument();
    expect(document.querySelectorAll('[data-slot="toast"]')).toHaveLength(0);
  });
});
