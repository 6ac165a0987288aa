import { PRIORITIES, type Priority } from '@shared/priorities';
import type { StaffNote } from '@shared/schemas/notes';
import { Pencil, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
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
  const [text, setText] = useState(note.note);
  const [priority, setPriority] = useState<Priority>(note.priority);
  const update = useUpdateNote();
  const remove = useDeleteNote();
  const ids = { text: useId(), priority: useId() };

  const startEditing = () => {
    setText(note.note);
    setPriority(note.priority);
    setEditing(true);
  };

  const save = () => {
    if (!text.trim()) return;
    update.mutate(
      { id: note.id, note: text.trim(), priority, date: note.date },
      {
        onSuccess: () => {
          toast({ title: 'Note updated', description: 'The note has been saved.' });
          setEditing(false);
        },
        onError: (error) => failed('Failed to update note', error),
      },
    );
  };

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

  if (editing) {
    return (
      <li className="grid gap-2 rounded-md bg-muted/50 p-2" data-testid="note-item">
        <Label htmlFor={ids.text} className="sr-only">
          Edit note
        </Label>
        <Textarea id={ids.text} value={text} onChange={(event) => setText(event.target.value)} rows={2} />
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="flex items-center gap-2">
            <Label htmlFor={ids.priority}>Priority</Label>
            <PrioritySelect id={ids.priority} value={priority} onChange={setPriority} />
          </div>
          <div className="flex gap-2">
            <Button size="sm" variant="outline" onClick={() => setEditing(false)} disabled={update.isPending}>
              Cancel
            </Button>
            <Button size="sm" onClick={save} disabled={!text.trim() || update.isPending}>
              {update.isPending ? 'Saving...' : 'Save'}
            </Button>
          </div>
        </div>
      </li>
    );
  }

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
        <Button size="icon-xs" variant="ghost" aria-label="Edit note" onClick={startEditing}>
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

function NewNoteForm({ facilitatorId, date }: { facilitatorId: number; date: string }) {
  const [text, setText] = useState('');
  const [priority, setPriority] = useState<Priority>('normal');
  const create = useCreateNote();
  const ids = { text: useId(), priority: useId() };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    create.mutate(
      { facilitatorId, date, note: text.trim(), priority },
      {
        onSuccess: () => {
          toast({ title: 'Note created', description: 'The note has been added.' });
          setText('');
          setPriority('normal');
        },
        onError: (error) => failed('Failed to create note', error),
      },
    );
  };

  return (
    <form className="grid gap-2" onSubmit={submit} aria-label="Add a note">
      <Label htmlFor={ids.text}>New note</Label>
      <Textarea
        id={ids.text}
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder="Add a note about this day"
        rows={2}
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-2">
          <Label htmlFor={ids.priority}>Priority</Label>
          <PrioritySelect id={ids.priority} value={priority} onChange={setPriority} />
        </div>
        <Button type="submit" size="sm" disabled={!text.trim() || create.isPending}>
          {create.isPending ? 'Adding...' : 'Add Note'}
        </Button>
      </div>
    </form>
  );
}
