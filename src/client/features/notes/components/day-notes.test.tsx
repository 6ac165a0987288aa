import type { StaffNote } from '@shared/schemas/notes';
import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { DayNotes } from './day-notes';

const DATE = '2026-03-10';
const note: StaffNote = {
  id: 41,
  facilitatorId: 7,
  date: DATE,
  note: 'Call before Friday',
  priority: 'urgent',
  createdBy: 1,
  createdAt: '2026-03-01T09:00:00.000Z',
  updatedAt: '2026-03-01T09:00:00.000Z',
};

/** Every change of a note refused with `message`; answers the methods and paths it was sent. */
function notesRefused(message: string) {
  const sent: string[] = [];
  const refuse = ({ request }: { request: Request }) => {
    sent.push(`${request.method} ${new URL(request.url).pathname}`);
    return HttpResponse.json({ message }, { status: 500 });
  };
  server.use(http.post('/api/staff/notes', refuse), http.put('/api/staff/notes/:id', refuse));
  server.use(http.delete('/api/staff/notes/:id', refuse));
  return sent;
}

/** The one toast on screen has `title` and `description`. */
async function expectToast(title: string, description: string) {
  const shown = await screen.findByText(title);
  const toast = shown.closest('[data-slot="toast"]') as HTMLElement;
  expect(within(toast).getByText(description)).toBeVisible();
}

describe('DayNotes (the staff day dialog notes)', () => {
  test('a refused create, edit or delete toasts why and keeps the note as it was', async () => {
    const sent = notesRefused('Something went wrong on our side. Please try again.');
    const { user } = renderWithApp(<DayNotes facilitatorId={7} date={DATE} notes={[note]} />);

    const newNote = screen.getByRole('textbox', { name: 'New note' });
    await user.type(newNote, 'Will fail');
    await user.click(screen.getByRole('button', { name: 'Add Note' }));
    await expectToast('Failed to create note', 'Something went wrong on our side. Please try again.');
    expect(newNote).toHaveValue('Will fail');

    await user.click(screen.getByRole('button', { name: 'Edit note' }));
    const editor = screen.getByRole('textbox', { name: 'Edit note' });
    await user.clear(editor);
    await user.type(editor, 'Changed');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await expectToast('Failed to update note', 'Something went wrong on our side. Please try again.');
    // the editor stays with what was typed
    expect(screen.getByRole('textbox', { name: 'Edit note' })).toHaveValue('Changed');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    await user.click(screen.getByRole('button', { name: 'Delete note' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this urgent note?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete note' }));
    await expectToast('Failed to delete note', 'Something went wrong on our side. Please try again.');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getAllByTestId('note-item')).toHaveLength(1);
    expect(screen.getByTestId('note-item')).toHaveTextContent('Call before Friday');

    expect(sent).toEqual(['POST /api/staff/notes', 'PUT /api/staff/notes/41', 'DELETE /api/staff/notes/41']);
  });
});
