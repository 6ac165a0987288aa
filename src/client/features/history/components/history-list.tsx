import type { HistoryEntry, HistoryPage } from '@shared/schemas/history';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api';
import { describeChange, fieldChanges, formatWhen, shortDay, viaLabel } from '../lib/history-format';

const ENTITY_LABEL: Record<HistoryEntry['entity'], string> = {
  availability: 'Availability',
  note: 'Staff note',
  account: 'Account',
  settings: 'Settings',
  offer: 'Offer',
  session: 'Session',
};

interface HistoryListProps {
  query: UseInfiniteQueryResult<InfiniteData<HistoryPage>, Error>;
  /** "You" for this person's own changes */
  viewerId?: number;
  /** say which day each change is about */
  showDay?: boolean;
  /** say what kind of record each change is about (a person's whole history) */
  showKind?: boolean;
  emptyText: string;
  /** names the list for assistive technology */
  label: string;
}

/** Changes, newest first, each as a sentence, its field changes, when (ORG time) and how. */
export function HistoryList({
  query,
  viewerId,
  showDay = false,
  showKind = false,
  emptyText,
  label,
}: HistoryListProps) {
  if (query.isPending) {
    return (
      <div className="grid gap-2" role="status">
        <span className="sr-only">Loading history</span>
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-12 w-full" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div role="alert" className="grid gap-2 text-sm">
        <p className="text-destructive">{errorMessage(query.error, 'The history could not be loaded.')}</p>
        <Button variant="outline" size="sm" className="w-fit" onClick={() => query.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const pages = query.data.pages;
  const timeZone = pages[0]?.timeZone ?? 'UTC';
  const entries = pages.flatMap((page) => page.entries);
  if (entries.length === 0) return <p className="text-muted-foreground text-sm">{emptyText}</p>;
  return (
    <div className="grid gap-3">
      <ol className="grid gap-2" aria-label={label} data-testid="history-list">
        {entries.map((entry) => (
          <HistoryItem
            key={entry.id}
            entry={entry}
            timeZone={timeZone}
            viewerId={viewerId}
            showDay={showDay}
            showKind={showKind}
          />
        ))}
      </ol>
      {query.hasNextPage ? (
        <Button
          variant="outline"
          size="sm"
          className="w-fit"
          disabled={query.isFetchingNextPage}
          onClick={() => query.fetchNextPage()}
        >
          {query.isFetchingNextPage ? 'Loading…' : 'Load older changes'}
        </Button>
      ) : null}
    </div>
  );
}

function HistoryItem({
  entry,
  timeZone,
  viewerId,
  showDay,
  showKind,
}: {
  entry: HistoryEntry;
  timeZone: string;
  viewerId: number | undefined;
  showDay: boolean;
  showKind: boolean;
}) {
  const changes = fieldChanges(entry, timeZone);
  return (
    <li className="grid gap-1 rounded-md border bg-muted/30 p-2 text-sm" data-testid="history-item">
      {(showKind || showDay) && (showKind || entry.date) ? (
        <div className="flex flex-wrap items-center gap-2 text-muted-foreground text-xs">
          {showKind ? <Badge variant="outline">{ENTITY_LABEL[entry.entity]}</Badge> : null}
          {showDay && entry.date ? (
            <span className="font-medium text-foreground/80">{shortDay(entry.date)}</span>
          ) : null}
        </div>
      ) : null}
      <p className="font-medium [overflow-wrap:anywhere]">{describeChange(entry, viewerId)}</p>
      {changes.length > 0 ? (
        <ul className="grid gap-0.5 text-muted-foreground text-xs">
          {changes.map((change) => (
            <li key={change.label} className="[overflow-wrap:anywhere]">
              <span className="font-medium text-foreground/80">{change.label}</span>
              {change.from !== undefined && change.to !== undefined ? (
                <>
                  : {change.from} → {change.to}
                </>
              ) : change.to !== undefined ? (
                <>: {change.to}</>
              ) : change.from !== undefined ? (
                <>: {change.from}</>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <p className="text-muted-foreground text-xs">
        <time dateTime={entry.at}>{formatWhen(entry.at, timeZone)}</time>
        {' · via '}
        {viaLabel(entry)}
      </p>
    </li>
  );
}
