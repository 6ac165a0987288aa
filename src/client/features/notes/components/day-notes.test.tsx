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

  test('a blank note cannot be added; a new one is sent with its priority, toasted and the box emptied', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post('/api/staff/notes', async ({ request }) => {
        const body = (await request.json()) as Pick<
          StaffNote,
          'facilitatorId' | 'date' | 'note' | 'priority'
        >;
        sent.push(body);
        return HttpResponse.json({ ...note, ...body, id: 42 } satisfies StaffNote, { status: 201 });
      }),
      // a change reads the notes again (the dashboard's own list is not mounted here)
      http.get('/api/staff/notes', () => HttpResponse.json([])),
    );
    const { user } = renderWithApp(<DayNotes facilitatorId={7} date={DATE} notes={[]} />);
    expect(screen.getByText('No notes for this day.')).toBeVisible();
    const add = screen.getByRole('button', { name: 'Add Note' });
    expect(add).toBeDisabled();
    const box = screen.getByRole('textbox', { name: 'New note' });
    await user.type(box, '    ');
    expect(add).toBeDisabled();

    await user.clear(box);
    await user.type(box, 'Bring the kiln key');
    await user.click(screen.getByRole('combobox', { name: 'Priority' }));
    await user.click(await screen.findByRole('option', { name: 'High' }));
    expect(add).toBeEnabled();
    await user.click(add);
    await expectToast('Note created', 'The note has been added.');
    expect(box).toHaveValue('');
    expect(sent).toEqual([{ facilitatorId: 7, date: DATE, note: 'Bring the kiln key', priority: 'high' }]);
  });

  test('a note is edited in place: blank cannot be saved; a change is sent, toasted and the editor closes', async () => {
    const sent: unknown[] = [];
    server.use(
      http.put('/api/staff/notes/:id', async ({ request, params }) => {
        const body = (await request.json()) as Pick<StaffNote, 'note' | 'priority'>;
        sent.push({ id: params.id, ...body });
        return HttpResponse.json({ ...note, ...body } satisfies StaffNote);
      }),
      http.get('/api/staff/notes', () => HttpResponse.json([])),
    );
    const { user } = renderWithApp(<DayNotes facilitatorId={7} date={DATE} notes={[note]} />);
    expect(screen.getByTestId('note-item')).toHaveTextContent('Urgent');
    await user.click(screen.getByRole('button', { name: 'Edit note' }));
    const editor = screen.getByRole('textbox', { name: 'Edit note' });
    expect(editor).toHaveValue('Call before Friday');
    const save = screen.getByRole('button', { name: 'Save' });
    await user.clear(editor);
    await user.type(editor, '  ');
    expect(save).toBeDisabled();

    await user.clear(editor);
    await user.type(editor, 'Call before Thursday');
    expect(save).toBeEnabled();
    await user.click(save);
    await expectToast('Note updated', 'The note has been saved.');
    expect(screen.queryByRole('textbox', { name: 'Edit note' })).toBeNull();
    expect(sent).toMatchObject([{ id: '41', note: 'Call before Thursday', priority: 'urgent' }]);
  });

  test("a delete is asked about by the note's priority and text; kept, nothing is sent; confirmed, it is", async () => {
    const sent: string[] = [];
    server.use(
      http.delete('/api/staff/notes/:id', ({ params }) => {
        sent.push(String(params.id));
        return new HttpResponse(null, { status: 204 });
      }),
      http.get('/api/staff/notes', () => HttpResponse.json([])),
    );
    const high: StaffNote = { ...note, id: 43, note: 'Prefers KS2', priority: 'high' };
    const { user } = renderWithApp(<DayNotes facilitatorId={7} date={DATE} notes={[high]} />);
    await user.click(screen.getByRole('button', { name: 'Delete note' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this high note?' });
    expect(confirm).toHaveTextContent('Prefers KS2');
    await user.click(within(confirm).getByRole('button', { name: 'Keep the note' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(sent).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete note' }));
    const again = await screen.findByRole('alertdialog', { name: 'Delete this high note?' });
    await user.click(within(again).getByRole('button', { name: 'Delete note' }));
    await expectToast('Note deleted', 'The note has been removed.');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(sent).toEqual(['43']);
  });
});
