import { monthLabel } from '@shared/calendar';
import type { FacilitatorCompleteness } from '@shared/schemas/completeness';
import { ArrowDown, ArrowUp, ArrowUpDown, ChevronLeft, ChevronRight } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableMessage,
  TableRow,
} from '@/components/ui/table';
import { SpacerRow, useRowWindow } from '@/components/ui/windowed-rows';
import { browserClockTime } from '@/lib/browser-today';
import { useNarrowScreen } from '@/lib/use-narrow-screen';
import { cn } from '@/lib/utils';
import { askedReport, type CompletenessOrder, useCompleteness } from '../api/completeness-api';
import { needsReminder, type SortKey, type SortState, STATUS_LABELS, shiftMonth } from '../lib/completeness';

const ALL_AREAS = '__all__';
/**
 * A row as the browser draws it: a checkbox, a badge and one line of text on a desktop, its text
 * wrapped on a phone. An estimate short or long of it made the windowed table find, once it had
 * measured its first rows, that another number fitted, and draw itself a second time as it opened.
 */
const ROW_HEIGHT = 43;
/** A phone's row: the name, its status and weekdays, the email, and area and last reminder. */
const NARROW_ROW_HEIGHT = 113;
/** The next page is asked for when the last row drawn is this close to the last row loaded. */
const LOAD_AHEAD_ROWS = 10;
const NO_IDS: number[] = [];

const STATUS_BADGE = {
  complete: 'success',
  partial: 'warning',
  missing: 'destructive',
} as const;

interface CompletenessPanelProps {
  month: string;
  area: string;
  onMonthChange: (month: string) => void;
  onAreaChange: (area: string) => void;
  /** the column the list is ordered by, and which way: the server orders it */
  order: CompletenessOrder;
  onOrderChange: (order: CompletenessOrder) => void;
  /** ids of the facilitators chosen for a reminder */
  selected: ReadonlySet<number>;
  onSelectedChange: (selected: Set<number>) => void;
}

/**
 * For a month: who has filled in every weekday (complete), some (partial) or none (missing), with
 * month navigation, an area filter, sortable columns and a choice of people to remind.
 */
export function CompletenessPanel(props: CompletenessPanelProps) {
  const { month, area, order, onOrderChange, onMonthChange, onAreaChange, selected, onSelectedChange } =
    props;
  const query = useCompleteness(month, area, order);
  const pages = query.data?.pages;
  const report = pages?.[0];
  const rows = useMemo(() => (pages ?? []).flatMap((page) => page.facilitators), [pages]);
  const total = report?.matching ?? 0;
  // a phone's table has one column for the person, so nothing is off to the right
  const narrow = useNarrowScreen();
  const rowHeight = narrow ? NARROW_ROW_HEIGHT : ROW_HEIGHT;
  const columns = narrow ? 2 : 7;
  const label = report?.month === month ? report.label : monthLabel(`${month}-01`);
  const sort = { key: order.sort, direction: order.direction };

  const toggleSort = (key: SortKey) =>
    onOrderChange(
      order.sort === key
        ? { sort: key, direction: order.direction === 'ascending' ? 'descending' : 'ascending' }
        : { sort: key, direction: 'ascending' },
    );

  const asked = askedReport(query);
  const choosable = asked !== null;
  // everyone partial or missing, every page together: the server names them
  const remindable = report?.remindableIds ?? NO_IDS;
  const chosen = remindable.filter((id) => selected.has(id));
  const allChosen = remindable.length > 0 && chosen.length === remindable.length;
  // a whole organisation's month draws only the rows in view, and reads them a page at a time
  const rowWindow = useRowWindow({
    count: rows.length,
    total,
    estimateRowHeight: rowHeight,
    rowKey: (index) => rows[index]!.userId,
  });
  const scrolls = rowWindow.windowed;
  const lastDrawn = rowWindow.rows.at(-1) ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastDrawn >= rows.length - LOAD_AHEAD_ROWS)
      void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, lastDrawn, rows.length]);

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex items-center gap-2">
          <Button
            variant="outline"
            size="icon"
            aria-label="Previous month"
            onClick={() => onMonthChange(shiftMonth(month, -1))}
          >
            <ChevronLeft aria-hidden />
          </Button>
          <h2
            className="min-w-40 text-center font-semibold text-lg"
            aria-live="polite"
            data-testid="completeness-month"
          >
            {label}
          </h2>
          <Button
            variant="outline"
            size="icon"
            aria-label="Next month"
            onClick={() => onMonthChange(shiftMonth(month, 1))}
          >
            <ChevronRight aria-hidden />
          </Button>
        </div>
        <div className="grid w-full grid-cols-[minmax(0,1fr)] gap-2 sm:w-64">
          <Label htmlFor="completeness-area">Area</Label>
          <Select
            value={area || ALL_AREAS}
            onValueChange={(value) => onAreaChange(value === ALL_AREAS ? '' : value)}
          >
            <SelectTrigger id="completeness-area">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL_AREAS}>All areas</SelectItem>
              {(report?.areas ?? []).map((name) => (
                <SelectItem key={name} value={name}>
                  {name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </div>

      {query.isPending ? (
        <div className="grid gap-2" role="status">
          <span className="sr-only">Loading completeness</span>
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-40 w-full" />
        </div>
      ) : query.isError ? (
        <p className="py-6 text-center text-destructive" role="alert">
          Completeness could not be loaded: {query.error.message}
        </p>
      ) : report ? (
        <>
          <p className="text-muted-foreground text-sm">
            {report.weekdays} weekdays (Monday to Friday) in {report.label}. A day counts as set when it has
            availability or a booking.
          </p>
          <ul className="grid grid-cols-3 gap-2 sm:max-w-md" aria-label="Summary">
            {(['complete', 'partial', 'missing'] as const).map((status) => (
              <li key={status} className="rounded-md border p-3" data-testid={`count-${status}`}>
                <span className="block font-semibold text-2xl tabular-nums">{report.counts[status]}</span>
                <span className="text-muted-foreground text-sm">{STATUS_LABELS[status]}</span>
              </li>
            ))}
          </ul>
          <Table
            containerLabel={`Availability completeness, ${report.label}`}
            aria-busy={query.isFetching}
            aria-rowcount={total + 1}
            scrollRef={scrolls ? rowWindow.scrollRef : undefined}
          >
            <TableHeader className={scrolls ? 'sticky top-0 z-20 bg-card' : undefined}>
              <TableRow highlight={false} aria-rowindex={1}>
                <TableHead scope="col" className="w-10">
                  <Checkbox
                    aria-label="Choose everyone who is partial or missing"
                    checked={allChosen ? true : chosen.length > 0 ? 'indeterminate' : false}
                    disabled={!choosable || remindable.length === 0}
                    onCheckedChange={(checked) =>
                      onSelectedChange(checked === true ? new Set(remindable) : new Set())
                    }
                  />
                </TableHead>
                {narrow ? (
                  <TableHead scope="col" aria-sort={sort.direction}>
                    <span className="sr-only">Facilitator</span>
                    <span className="flex flex-wrap gap-x-1">
                      {NARROW_SORTS.map(({ key, label }) => (
                        <SortButton key={key} label={label} sortKey={key} sort={sort} onSort={toggleSort} />
                      ))}
                    </span>
                  </TableHead>
                ) : (
                  <>
                    <SortableHead label="Name" sortKey="name" sort={sort} onSort={toggleSort} />
                    <SortableHead label="Area" sortKey="area" sort={sort} onSort={toggleSort} />
                    <SortableHead label="Status" sortKey="status" sort={sort} onSort={toggleSort} />
                    <SortableHead label="Weekdays set" sortKey="count" sort={sort} onSort={toggleSort} />
                    <TableHead scope="col">Email</TableHead>
                    <TableHead scope="col">Last reminded</TableHead>
                  </>
                )}
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.length === 0 ? (
                <TableMessage colSpan={columns}>No facilitators{area ? ` in ${area}` : ''}.</TableMessage>
              ) : (
                <>
                  <SpacerRow height={rowWindow.before} columns={columns} />
                  {rowWindow.rows.map((position) => {
                    const f = rows[position]!;
                    return (
                      <CompletenessRow
                        key={f.userId}
                        position={position}
                        measureRow={rowWindow.measureRow}
                        facilitator={f}
                        narrow={narrow}
                        checked={selected.has(f.userId)}
                        disabled={!choosable}
                        onCheckedChange={(checked) => {
                          const next = new Set(selected);
                          if (checked) next.add(f.userId);
                          else next.delete(f.userId);
                          onSelectedChange(next);
                        }}
                      />
                    );
                  })}
                  <SpacerRow height={rowWindow.after} columns={columns} />
                </>
              )}
            </TableBody>
          </Table>
        </>
      ) : null}
    </div>
  );
}

/** The orders a phone's one column offers, as its heading's buttons. */
const NARROW_SORTS: { key: SortKey; label: string }[] = [
  { key: 'name', label: 'Name' },
  { key: 'status', label: 'Status' },
  { key: 'count', label: 'Weekdays set' },
];

interface SortProps {
  label: string;
  sortKey: SortKey;
  sort: SortState;
  onSort: (key: SortKey) => void;
}

function SortButton({ label, sortKey, sort, onSort }: SortProps) {
  const active = sort.key === sortKey;
  const Icon = !active ? ArrowUpDown : sort.direction === 'ascending' ? ArrowUp : ArrowDown;
  return (
    <Button variant="ghost" size="sm" className="-ml-3" onClick={() => onSort(sortKey)} aria-pressed={active}>
      {label}
      <Icon aria-hidden className={cn(!active && 'opacity-50')} />
    </Button>
  );
}

function SortableHead(props: SortProps) {
  const active = props.sort.key === props.sortKey;
  return (
    <TableHead scope="col" aria-sort={active ? props.sort.direction : 'none'}>
      <SortButton {...props} />
    </TableHead>
  );
}

function CompletenessRow({
  facilitator: f,
  position,
  measureRow,
  narrow,
  checked,
  disabled,
  onCheckedChange,
}: {
  facilitator: FacilitatorCompleteness;
  /** a phone: everything about the person in one cell, on lines of its own */
  narrow: boolean;
  /** the row's place in the sorted list, from 0 */
  position: number;
  measureRow: ((row: HTMLTableRowElement | null) => void) | undefined;
  checked: boolean;
  disabled: boolean;
  onCheckedChange: (checked: boolean) => void;
}) {
  const remindable = needsReminder(f);
  const status = <Badge variant={STATUS_BADGE[f.status]}>{STATUS_LABELS[f.status]}</Badge>;
  const weekdays = (
    <span className="tabular-nums">
      {f.setDays} of {f.weekdays} weekdays
    </span>
  );
  const email = f.email ?? 'No email address';
  const reminded = f.lastRemindedAt ? formatWhen(f.lastRemindedAt, f.remindedToday) : 'Never';
  return (
    <TableRow
      data-testid="completeness-row"
      data-status={f.status}
      aria-rowindex={position + 2}
      data-index={position}
      ref={measureRow}
    >
      <TableCell>
        {remindable ? (
          <Checkbox
            aria-label={`Choose ${f.name}`}
            checked={checked}
            disabled={disabled}
            onCheckedChange={(value) => onCheckedChange(value === true)}
          />
        ) : null}
      </TableCell>
      {narrow ? (
        <TableCell wrap className="[overflow-wrap:anywhere]">
          <div className="grid gap-1">
            <span className="font-medium" data-testid="completeness-name">
              {f.name}
            </span>
            <span className="flex flex-wrap items-center gap-2">
              {status}
              {weekdays}
            </span>
            <span className="text-muted-foreground">{email}</span>
            <span className="text-muted-foreground text-xs">
              Area: {f.area ?? '-'} · Last reminded: {reminded}
            </span>
          </div>
        </TableCell>
      ) : (
        <>
          <TableCell className="font-medium" data-testid="completeness-name">
            {f.name}
          </TableCell>
          <TableCell>{f.area ?? '-'}</TableCell>
          <TableCell>{status}</TableCell>
          <TableCell>{weekdays}</TableCell>
          <TableCell wrap className="min-w-40 [overflow-wrap:anywhere]">
            {email}
          </TableCell>
          <TableCell>{reminded}</TableCell>
        </>
      )}
    </TableRow>
  );
}

// built on first use, once: toLocaleDateString with options builds a new formatter on every call
let reminderDay: Intl.DateTimeFormat | undefined;

function formatWhen(iso: string, today: boolean): string {
  const date = new Date(iso);
  const time = browserClockTime(date);
  if (today) return `Today, ${time}`;
  reminderDay ??= new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
  return `${reminderDay.format(date)}, ${time}`;
}
