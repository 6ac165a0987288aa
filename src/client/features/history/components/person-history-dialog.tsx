import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { usePersonHistory, useRefreshHistoryOnChanges } from '../api/history-api';
import { HistoryList } from './history-list';

export interface HistoryPerson {
  id: number;
  name: string;
}

/**
 * Staff: everything recorded about one person (account, availability, notes), newest first. Opened
 * from outside (it has no trigger of its own); the dialog hands focus back to whatever opened it.
 */
export function PersonHistoryDialog({
  person,
  onClose,
}: {
  person: HistoryPerson | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={person !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent width="xl">{person ? <PersonHistory person={person} /> : null}</DialogContent>
    </Dialog>
  );
}

function PersonHistory({ person }: { person: HistoryPerson }) {
  const query = usePersonHistory(person.id, true);
  useRefreshHistoryOnChanges();
  return (
    <>
      <DialogHeader>
        <DialogTitle>History: {person.name}</DialogTitle>
        <DialogDescription>
          Changes to this account, its availability and staff notes, newest first.
        </DialogDescription>
      </DialogHeader>
      <HistoryList
        query={query}
        showDay
        showKind
        label={`Changes about ${person.name}`}
        emptyText="No changes recorded yet."
      />
    </>
  );
}
