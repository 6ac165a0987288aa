import { zodResolver } from '@hookform/resolvers/zod';
import { PRIORITIES, type Priority } from '@shared/priorities';
import { type NoteForm, noteForm, type StaffNote } from '@shared/schemas/notes';
import { Pencil, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { type Control, Controller, useForm } from 'react-hook-form';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useCreateNote, useDeleteNote, useUpdateNote } from '../api/notes-api';
import { PRIORITY_LABEL } from '../lib/note-model';

const BADGE_VARIANT: Record<Priority, 'destructive' | 'warning' | 'secondary'> = {
  urgent: 'destructive',
  high: 'warning',
  normal: 'secondary',
};

function failed(title: string, error: Error) {
  toast({ variant: 'destructive', title, description: errorMessage(error, 'Please try again.') });
}

function PrioritySelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: Priority;
  onChange: (p: Priority) => void;
}) {
  return (
    <Select value={value} onValueChange={(next) => onChange(next as Priority)}>
      <SelectTrigger id={id} size="sm">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {PRIORITIES.map((p) => (
          <SelectItem key={p} value={p}>
            {PRIORITY_LABEL[p]}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

/** The day dialog's notes: list with priority, inline edit, delete, and a form for a new note. */
export function DayNotes({
  facilitatorId,
  date,
  notes,
}: {
  facilitatorId: number;
  date: string;
  notes: StaffNote[];
}) {
  return (
    <section className="grid gap-3 rounded-md border p-3" aria-labelledby="day-notes-heading">
      <h3 id="day-notes-heading" className="font-semibold text-sm">
        Staff Notes
      </h3>
      {notes.length === 0 ? (
        <p className="text-muted-foreground text-sm">No notes for this day.</p>
      ) : (
        <ul className="grid gap-2" data-testid="note-list">
          {notes.map((note) => (
            <NoteItem key={note.id} note={note} />
          ))}
        </ul>
      )}
      <NewNoteForm facilitatorId={facilitatorId} date={date} />
    </section>
  );
}

function NoteItem({ note }: { note: StaffNote }) {
  const [editing, setEditing] = useState(false);
  const remove = useDeleteNote();

  // a note is deleted only once staff confirm: it cannot be brought back
  const [confirming, setConfirming] = useState(false);
  const destroy = () =>
    remove.mutate(note.id, {
      onSuccess: () => {
        setConfirming(false);
        toast({ title: 'Note deleted', description: 'The note has been removed.' });
      },
      onError: (error) => {
        setConfirming(false);
        failed('Failed to delete note', error);
      },
    });

  // mounted as editing starts, so each edit starts from the note as it is
  if (editing) return <NoteEditor note={note} onDone={() => setEditing(false)} />;

  return (
    <li
      className="flex items-start justify-between gap-2 rounded-md bg-muted/50 p-2"
      data-testid="note-item"
      data-priority={note.priority}
    >
      <div className="grid min-w-0 gap-1">
        <Badge variant={BADGE_VARIANT[note.priority]}>{PRIORITY_LABEL[note.priority]}</Badge>
        <p className="whitespace-pre-wrap text-sm [overflow-wrap:anywhere]">{note.note}</p>
      </div>
      <div className="flex shrink-0 gap-1">
        <Button size="icon-xs" variant="ghost" aria-label="Edit note" onClick={() => setEditing(true)}>
          <Pencil aria-hidden />
        </Button>
        <Button
          size="icon-xs"
          variant="ghost-destructive"
          aria-label="Delete note"
          onClick={() => setConfirming(true)}
          disabled={remove.isPending}
        >
          <Trash2 aria-hidden />
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={`Delete this ${PRIORITY_LABEL[note.priority].toLowerCase()} note?`}
        description={note.note}
        descriptionClassName="line-clamp-4 whitespace-pre-wrap [overflow-wrap:anywhere]"
        cancelLabel="Keep the note"
        confirmLabel="Delete note"
        pendingLabel="Deleting..."
        pending={remove.isPending}
        destructive
        onCancel={() => setConfirming(false)}
        onConfirm={destroy}
      >
        <p className="text-sm">The note cannot be brought back once deleted.</p>
      </ConfirmDialog>
    </li>
  );
}

/** The note forms' rules: the shared schema's; Save and Add stay disabled while the note is blank. */
const noteResolver = zodResolver(noteForm);

function useNoteForm(defaultValues: NoteForm) {
  return useForm<NoteForm>({ resolver: noteResolver, defaultValues, mode: 'onChange' });
}

function PriorityField({ id, control }: { id: string; control: Control<NoteForm> }) {
  return (
    <div className="flex items-center gap-2">
      <Label htmlFor={id}>Priority</Label>
      <Controller
        control={control}
        name="priority"
        render={({ field }) => <PrioritySelect id={id} value={field.value} onChange={field.onChange} />}
      />
    </div>
  );
}

function NoteEditor({ note, onDone }: { note: StaffNote; onDone: () => void }) {
  const update = useUpdateNote();
  const ids = { text: useId(), priority: useId() };
  const form = useNoteForm({ note: note.note, priority: note.priority });
  const save = (values: NoteForm) =>
    update.mutate(
      { id: note.id, ...values, date: note.date },
      {
        onSuccess: () => {
          toast({ title: 'Note updated', description: 'The note has been saved.' });
          onDone();
        },
        onError: (error) => failed('Failed to update note', error),
      },
    );
  return (
    <li className="grid gap-2 rounded-md bg-muted/50 p-2" data-testid="note-item">
      <Label htmlFor={ids.text} className="sr-only">
        Edit note
      </Label>
      <Textarea id={ids.text} rows={2} {...form.register('note')} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <PriorityField id={ids.priority} control={form.control} />
        <div className="flex gap-2">
          <Button size="sm" variant="outline" onClick={onDone} disabled={update.isPending}>
            Cancel
          </Button>
          <Button
            size="sm"
            onClick={form.handleSubmit(save)}
            disabled={!form.formState.isValid || update.isPending}
          >
            {update.isPending ? 'Saving...' : 'Save'}
          </Button>
        </div>
      </div>
    </li>
  );
}

function NewNoteForm({ facilitatorId, date }: { facilitatorId: number; date: string }) {
  const create = useCreateNote();
  const ids = { text: useId(), priority: useId() };
  const form = useNoteForm({ note: '', priority: 'normal' });

  const add = (values: NoteForm) =>
    create.mutate(
      { facilitatorId, date, ...values },
      {
        onSuccess: () => {
          toast({ title: 'Note created', description: 'The note has been added.' });
          form.reset();
        },
        onError: (error) => failed('Failed to create note', error),
      },
    );

  return (
    <form className="grid gap-2" onSubmit={form.handleSubmit(add)} aria-label="Add a note">
      <Label htmlFor={ids.text}>New note</Label>
      <Textarea id={ids.text} placeholder="Add a note about this day" rows={2} {...form.register('note')} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <PriorityField id={ids.priority} control={form.control} />
        <Button type="submit" size="sm" disabled={!form.formState.isValid || create.isPending}>
          {create.isPending ? 'Adding...' : 'Add Note'}
        </Button>
      </div>
    </form>
  );
}
