import type { PatternBody, PatternPreview, PatternResult } from '@shared/schemas/patterns';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

export type PatternInput = PatternBody & { userId: number };

/** What the pattern would set, skip and replace; nothing is saved. */
export function usePatternPreview() {
  return useMutation<PatternPreview, Error, PatternInput>({
    mutationFn: (body) => apiJson<PatternPreview>('POST', '/api/availability/pattern/preview', body),
  });
}

/**
 * Saves the pattern. Every cached range of the person's availability is refetched afterwards (the
 * shared key's prefix), so the calendar shows the new days.
 */
export function useApplyPattern() {
  const queryClient = useQueryClient();
  return useMutation<PatternResult, Error, PatternInput>({
    mutationFn: (body) => apiJson<PatternResult>('POST', '/api/availability/pattern', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.myAvailability.all }),
  });
}
