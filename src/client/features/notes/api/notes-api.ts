import type { StaffView } from '@shared/calendar';
import type { CreateNoteBody, StaffNote, UpdateNoteBody } from '@shared/schemas/notes';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

const STAFF_NOTES_URL = '/api/staff/notes';

/** The notes' cache keys; `all` refreshes every view's notes. */
export const notesKeys = {
  all: ['staff-notes'] as const,
  view: (view: StaffView, date: string) => ['staff-notes', view, date] as const,
} as const;

/**
 * Notes of the staff view (Monday-Friday week, two weeks or month) containing `date`, as query options.
 */
export const staffNotesQuery = (view: StaffView, date: string) =>
  queryOptions<StaffNote[]>({
    queryKey: notesKeys.view(view, date),
    queryFn: () =>
      apiJson<StaffNote[]>('GET', `${STAFF_NOTES_URL}?date=${encodeURIComponent(date)}&view=${view}`),
  });

/** `enabled` false: not read (yet); the staff dashboard reads them once a day is opened. */
export function useStaffNotes(view: StaffView, date: string, enabled = true) {
  return useQuery({ ...staffNotesQuery(view, date), placeholderData: keepPreviousData, enabled });
}

/** A changed note refetches the notes and the staff grid, whose cells mark the days with notes. */
function useInvalidateNotes() {
  const queryClient = useQueryClient();
  return () => {
    // the grid's marks follow; the change is done once the notes are read again
    void queryClient.invalidateQueries({ queryKey: queryKeys.staffGrid.all });
    return queryClient.invalidateQueries({ queryKey: notesKeys.all });
  };
}

export function useCreateNote() {
  const invalidate = useInvalidateNotes();
  return useMutation<StaffNote, Error, CreateNoteBody>({
    mutationFn: (body) => apiJson<StaffNote>('POST', STAFF_NOTES_URL, body),
    onSuccess: invalidate,
  });
}

export function useUpdateNote() {
  const invalidate = useInvalidateNotes();
  return useMutation<StaffNote, Error, { id: number } & UpdateNoteBody>({
    mutationFn: ({ id, ...body }) => apiJson<StaffNote>('PUT', `${STAFF_NOTES_URL}/${id}`, body),
    onSuccess: invalidate,
  });
}

export function useDeleteNote() {
  const invalidate = useInvalidateNotes();
  return useMutation<void, Error, number>({
    mutationFn: (id) => apiJson<void>('DELETE', `${STAFF_NOTES_URL}/${id}`),
    onSuccess: invalidate,
  });
}
