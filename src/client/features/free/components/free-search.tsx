import type { FreeFacilitator, FreeResult } from '@shared/schemas/free';
import type { Priority } from '@shared/schemas/notes';
import { CalendarCheck, CalendarDays, Clock, StickyNote, X } from 'lucide-react';
import { useCallback, useEffect, useId, useMemo } from 'react';
import { Link } from 'wouter';
import { SafeguardingBadge } from '@/components/safeguarding-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { SpacerItem, useRowWindow, windowedItemProps } from '@/components/ui/windowed-rows';
import { ApiError, errorMessage } from '@/lib/api';
import { cn } from '@/lib/utils';
import { useFreeSearch } from '../api/free-api';
import {
  bookingsLabel,
  type FreeSearchState,
  fitLabel,
  searchProblems,
  searchQueryString,
  statusLabel,
  summaryLabel,
  timesLabel,
} from '../lib/free-model';

const STATUS_VARIANT = {
  available: 'success',
  limited: 'warning',
  unavailable: 'destructive',
} as const;

const PRIORITY_VARIANT: Record<Priority, 'destructive' | 'warning' | 'secondary'> = {
  urgent: 'destructive',
  high: 'warning',
  normal: 'secondary',
};

const PRIORITY_LABEL: Record<Priority, string> = { urgent: 'Urgent', high: 'High', normal: 'Normal' };

/**
 * "Who is free": the search form (day, optional time window, areas, show everyone) and the ranked
 * answer. The search itself is the caller's (the page keeps it in its address).
 */
export function FreeSearch({
  search,
  onSearchChange,
  onOpenDay,
}: {
  search: FreeSearchState;
  onSearchChange: (next: FreeSearchState) => void;
  /** opens that person's day (availability, notes); composed in by the page */
  onOpenDay?: (row: FreeFacilitator, date: string) => void;
}) {
  const problems = searchProblems(search);
  const valid = Object.keys(problems).length === 0;
  const query = useFreeSearch(searchQueryString(search), valid);
  const pages = query.data?.pages;
  const result = pages?.[0];
  const rows = useMemo(() => (pages ?? []).flatMap((page) => page.facilitators), [pages]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const set = (change: Partial<FreeSearchState>) => onSearchChange({ ...search, ...change });

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <Card>
        <CardContent className="grid gap-5">
          <SearchFields search={search} shownDate={result?.date ?? ''} problems={problems} onChange={set} />
          <AreaChoice
            available={result?.availableAreas ?? []}
            selected={search.areas}
            onChange={(areas) => set({ areas })}
          />
          <EveryoneToggle checked={search.everyone} onChange={(everyone) => set({ everyone })} />
        </CardContent>
      </Card>

      <section aria-labelledby="free-results-heading" className="grid gap-3">
        <h2 id="free-results-heading" className="sr-only">
          Results
        </h2>
        {query.error ? (
          <div role="alert" className="grid gap-2">
            <p className="text-destructive">
              The search failed: {errorMessage(query.error, 'Please try again.')}
            </p>
            {query.error instanceof ApiError && (query.error.status === 401 || query.error.status === 403) ? (
              <Link href="/staff-login" className="text-primary text-sm underline underline-offset-4">
                Go to staff sign-in
              </Link>
            ) : null}
          </div>
        ) : !result ? (
          <p role="status" className="py-6 text-center text-muted-foreground">
            {valid ? 'Searching...' : 'Correct the time window to search.'}
          </p>
        ) : (
          <Results
            result={result}
            rows={rows}
            onLoadMore={loadMore}
            stale={query.isPlaceholderData || !valid}
            onOpenDay={onOpenDay}
          />
        )}
      </section>
    </div>
  );
}

function SearchFields({
  search,
  shownDate,
  problems,
  onChange,
}: {
  search: FreeSearchState;
  shownDate: string;
  problems: Record<string, string>;
  onChange: (change: Partial<FreeSearchState>) => void;
}) {
  const id = useId();
  const field = (name: 'date' | 'from' | 'to', label: string, type: 'date' | 'time', value: string) => {
    const problem = problems[name];
    return (
      <div className="grid content-start gap-2">
        <Label htmlFor={`${id}-${name}`}>{label}</Label>
        <Input
          id={`${id}-${name}`}
          type={type}
          value={value}
          onChange={(event) =>
            onChange(name === 'date' ? { date: event.target.value || null } : { [name]: event.target.value })
          }
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-${name}-problem` : undefined}
        />
        {problem ? (
          <p id={`${id}-${name}-problem`} className="text-destructive text-sm">
            {problem}
          </p>
        ) : null}
      </div>
    );
  };
  const hasWindow = Boolean(search.from || search.to);
  return (
    <div className="grid grid-cols-2 gap-4 sm:grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-start">
      <div className="col-span-2 grid sm:col-span-1">
        {field('date', 'Date', 'date', search.date ?? shownDate)}
      </div>
      {field('from', 'From (optional)', 'time', search.from)}
      {field('to', 'To (optional)', 'time', search.to)}
      <div className="col-span-2 grid gap-2 sm:col-span-1 sm:pt-6">
        <Button
          variant="ghost"
          className="justify-self-start"
          disabled={!hasWindow}
          onClick={() => onChange({ from: '', to: '' })}
        >
          <X aria-hidden />
          Any time
        </Button>
      </div>
    </div>
  );
}

function AreaChoice({
  available,
  selected,
  onChange,
}: {
  available: string[];
  selected: string[];
  onChange: (areas: string[]) => void;
}) {
  const id = useId();
  const chosen = new Set(selected.map((area) => area.toLowerCase()));
  // an area in the address that no facilitator has (any more) stays visible, so it can be unticked
  const options = [
    ...available,
    ...selected.filter((area) => !available.some((a) => a.toLowerCase() === area.toLowerCase())),
  ];
  const toggle = (area: string, checked: boolean) =>
    onChange(checked ? [...selected, area] : selected.filter((a) => a.toLowerCase() !== area.toLowerCase()));
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 font-medium text-sm">Areas</legend>
      <p className="text-muted-foreground text-sm" id={`${id}-hint`}>
        {selected.length === 0
          ? 'Every area is searched. Tick areas to narrow it down.'
          : 'Only the ticked areas are searched.'}
      </p>
      {options.length === 0 ? (
        <p className="text-muted-foreground text-sm">No facilitator has an area yet.</p>
      ) : (
        <div className="flex flex-wrap gap-2">
          {options.map((area, index) => {
            const checked = chosen.has(area.toLowerCase());
            return (
              <div
                key={area}
                className={cn(
                  'flex items-center gap-2 rounded-md border px-3 py-2',
                  checked ? 'border-primary bg-primary/5' : 'border-input',
                )}
              >
                <Checkbox
                  id={`${id}-area-${index}`}
                  checked={checked}
                  onCheckedChange={(value) => toggle(area, value === true)}
                />
                <Label
                  plain
                  htmlFor={`${id}-area-${index}`}
                  className="flex cursor-pointer items-center gap-2 font-normal leading-none"
                >
                  {area}
                </Label>
              </div>
            );
          })}
          {selected.length > 0 ? (
            <Button variant="ghost" onClick={() => onChange([])}>
              All areas
            </Button>
          ) : null}
        </div>
      )}
    </fieldset>
  );
}

function EveryoneToggle({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <Checkbox
        id={id}
        checked={checked}
        onCheckedChange={(value) => onChange(value === true)}
        aria-describedby={`${id}-hint`}
        className="mt-0.5"
      />
      <div className="grid gap-1">
        <Label htmlFor={id} className="cursor-pointer">
          Show everyone
        </Label>
        <p id={`${id}-hint`} className="text-muted-foreground text-sm">
          Also list who is unavailable, already booked, has no availability set, whose times don't cover the
          window, or whose safeguarding checks are missing or expired, with the reason.
        </p>
      </div>
    </div>
  );
}

/** The next page is asked for when the cards drawn reach this close to the last one read. */
const LOAD_AHEAD_ROWS = 10;

function Results({
  result,
  rows,
  onLoadMore,
  stale,
  onOpenDay,
}: {
  /** the first page: the search as the server read it, and the counts of the whole list */
  result: FreeResult;
  /** the cards read so far, every page together */
  rows: FreeFacilitator[];
  onLoadMore: () => void;
  stale: boolean;
  onOpenDay: ((row: FreeFacilitator, date: string) => void) | undefined;
}) {
  const total = result.include === 'all' ? result.freeCount + result.leftOutCount : result.freeCount;
  // "Show everyone" at 5,000 facilitators drew 5,000 cards (217,000 elements, 9 s): a long list
  // draws the cards in view inside a region that scrolls, as the long tables do (ADR 60), and reads
  // them a page at a time as they come into view
  const rowWindow = useRowWindow({
    count: rows.length,
    total,
    estimateRowHeight: CARD_HEIGHT,
    rowKey: (index) => rows[index]!.userId,
  });
  const lastDrawn = rowWindow.rows.at(-1) ?? -1;
  useEffect(() => {
    if (rows.length < total && lastDrawn >= rows.length - LOAD_AHEAD_ROWS) onLoadMore();
  }, [rows.length, total, lastDrawn, onLoadMore]);
  // a new search starts at its best match, wherever the last one was scrolled to
  const { scrollRef } = rowWindow;
  const searched = [result.date, result.from, result.to, result.include, ...result.areas].join('|');
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search is the point, not the values it is built from
  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 });
  }, [searched, scrollRef]);
  return (
    <div className={cn('grid gap-3 transition-opacity', stale && 'opacity-60')} aria-busy={stale}>
      <div role="status" className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <p className="font-medium" data-testid="free-summary">
          {summaryLabel(result.freeCount, result.date, result.from, result.to)}
        </p>
        {result.leftOutCount > 0 ? (
          <p className="text-muted-foreground text-sm" data-testid="free-left-out">
            {result.include === 'all'
              ? `${result.leftOutCount} not free, listed after them`
              : `${result.leftOutCount} left out (tick Show everyone to see why)`}
          </p>
        ) : null}
      </div>
      {rows.length === 0 ? (
        <p className="rounded-lg border border-dashed p-6 text-center text-muted-foreground">
          {result.areas.length > 0 ? 'No facilitators in these areas.' : 'No facilitators yet.'}
        </p>
      ) : (
        <div
          ref={rowWindow.windowed ? rowWindow.scrollRef : undefined}
          {...(rowWindow.windowed
            ? {
                role: 'region',
                'aria-label': 'Facilitators, best match first, scrollable',
                tabIndex: 0,
                className: 'relative max-h-[70vh] overflow-y-auto rounded-lg',
              }
            : {})}
        >
          {/* minmax(0, 1fr): one long address must not widen every card */}
          <ol aria-label="Facilitators, best match first" className="grid grid-cols-[minmax(0,1fr)]">
            <SpacerItem height={rowWindow.before} />
            {rowWindow.rows.map((position) => {
              const row = rows[position]!;
              return (
                <li
                  key={row.userId}
                  className="pb-3 last:pb-0"
                  {...windowedItemProps(rowWindow, position, total)}
                >
                  <FreeRow row={row} onOpen={onOpenDay ? () => onOpenDay(row, result.date) : undefined} />
                </li>
              );
            })}
            <SpacerItem height={rowWindow.after} />
          </ol>
        </div>
      )}
    </div>
  );
}

/** A card's usual height: name, area, email, badges, times and bookings, and the open button. */
const CARD_HEIGHT = 180;

function FreeRow({ row, onOpen }: { row: FreeFacilitator; onOpen: (() => void) | undefined }) {
  const fit = fitLabel(row);
  return (
    <div
      data-testid="free-row"
      data-name={row.name}
      data-free={row.free}
      className={cn(
        'grid gap-3 rounded-lg border p-4 text-card-foreground',
        row.free ? 'bg-card' : 'bg-muted/40',
      )}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid min-w-0 gap-0.5">
          <h3 className="font-semibold [overflow-wrap:anywhere]">{row.name}</h3>
          <p className="text-muted-foreground text-sm">{row.area ?? 'No area'}</p>
          {row.email ? (
            <a
              href={`mailto:${row.email}`}
              className="justify-self-start text-primary text-sm underline-offset-4 [overflow-wrap:anywhere] hover:underline focus-visible:underline"
              data-testid="free-email"
            >
              {row.email}
            </a>
          ) : null}
        </div>
        <div className="flex flex-wrap gap-1.5">
          {row.status ? (
            <Badge variant={STATUS_VARIANT[row.status]}>{statusLabel(row)}</Badge>
          ) : (
            <Badge variant="outline">{statusLabel(row)}</Badge>
          )}
          {fit ? <Badge variant="outline">{fit}</Badge> : null}
          <SafeguardingBadge state={row.safeguarding.state} reasons={row.safeguarding.reasons} />
        </div>
      </div>

      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm sm:grid-cols-[auto_minmax(0,1fr)_auto_minmax(0,1fr)]">
        <dt className="flex items-center gap-1.5 text-muted-foreground">
          <Clock className="size-4" aria-hidden />
          Times
        </dt>
        <dd data-testid="free-times">{timesLabel(row)}</dd>
        <dt className="flex items-center gap-1.5 text-muted-foreground">
          <CalendarCheck className="size-4" aria-hidden />
          Bookings
        </dt>
        <dd data-testid="free-bookings">{bookingsLabel(row.bookingsCount)}</dd>
      </dl>

      {row.reasons.length > 0 ? (
        <p className="text-destructive text-sm" data-testid="free-reason">
          <span className="font-medium">Not free: </span>
          {row.reasons.join('; ')}
        </p>
      ) : null}

      {row.availabilityNotes ? (
        <p className="text-sm [overflow-wrap:anywhere]">
          <span className="font-medium">Their note: </span>
          <span data-testid="free-availability-note">{row.availabilityNotes}</span>
        </p>
      ) : null}

      {row.notes.length > 0 ? (
        <ul aria-label={`Staff notes about ${row.name}`} className="grid gap-1.5">
          {row.notes.map((note) => (
            <li key={note.id} className="flex items-start gap-2 text-sm">
              <StickyNote className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
              <Badge variant={PRIORITY_VARIANT[note.priority]}>{PRIORITY_LABEL[note.priority]}</Badge>
              <span
                className="min-w-0 whitespace-pre-wrap [overflow-wrap:anywhere]"
                data-testid="free-staff-note"
              >
                {note.note}
              </span>
            </li>
          ))}
        </ul>
      ) : null}

      {onOpen ? (
        // a long name wraps inside the button rather than widening the card past the screen
        <Button
          variant="outline"
          size="sm-wrap"
          className="max-w-full justify-self-start [overflow-wrap:anywhere]"
          onClick={onOpen}
        >
          <CalendarDays aria-hidden />
          Open {row.name}'s day
        </Button>
      ) : null}
    </div>
  );
}
