import type { StaffView } from '@shared/calendar';
import type { CreateNoteBody, StaffNote, UpdateNoteBody } from '@shared/schemas/notes';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';

export const STAFF_NOTES_KEY = '/api/staff/notes';

/**
 * Notes of the staff view (Monday-Friday week or month) containing `date`, as query options shared
 * by the hook and the app's prefetch at load.
 */
export const staffNotesQuery = (view: StaffView, date: string) =>
  queryOptions<StaffNote[]>({
    queryKey: [STAFF_NOTES_KEY, view, date],
    queryFn: () =>
      apiJson<StaffNote[]>('GET', `${STAFF_NOTES_KEY}?date=${encodeURIComponent(date)}&view=${view}`),
  });

export function useStaffNotes(view: StaffView, date: string) {
  return useQuery({ ...staffNotesQuery(view, date), placeholderData: keepPreviousData });
}

function useInvalidateNotes() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: [STAFF_NOTES_KEY] });
}

export function useCreateNote() {
  const invalidate = useInvalidateNotes();
  return useMutation<StaffNote, Error, CreateNoteBody>({
    mutationFn: (body) => apiJson<StaffNote>('POST', STAFF_NOTES_KEY, body),
    onSuccess: invalidate,
  });
}

export function useUpdateNote() {
  const invalidate = useInvalidateNotes();
  return useMutation<StaffNote, Error, { id: number } & UpdateNoteBody>({
    mutationFn: ({ id, ...body }) => apiJson<StaffNote>('PUT', `${STAFF_NOTES_KEY}/${id}`, body),
    onSuccess: invalidate,
  });
}

export function useDeleteNote() {
  const invalidate = useInvalidateNotes();
  return useMutation<void, Error, number>({
    mutationFn: (id) => apiJson<void>('DELETE', `${STAFF_NOTES_KEY}/${id}`),
    onSuccess: invalidate,
  });
}
