import type { DateString, NavigationAction, StaffView } from '@shared/calendar';
import { dayOfWeek, MONDAY, navigateStaffView, STAFF_VIEWS, staffViewDays } from '@shared/calendar';
import type { Priority } from '@shared/schemas/notes';
import type { StaffGridRow } from '@shared/schemas/staff-grid';
import type { PublicUser } from '@shared/schemas/users';
import { useVirtualizer, useWindowVirtualizer } from '@tanstack/react-virtual';
import { ChevronLeft, ChevronRight, StickyNote } from 'lucide-react';
import {
  type CSSProperties,
  memo,
  type ReactNode,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { SafeguardingBadge } from '@/components/safeguarding-badge';
import { Button } from '@/components/ui/button';
import { useNarrowScreen } from '@/lib/use-narrow-screen';
import { useSettledValue } from '@/lib/use-settled-value';
import { cn } from '@/lib/utils';
import {
  CELL_TONE_CLASS,
  type CellTone,
  cellDescription,
  cellTone,
  columnLabel,
  DAY_COLUMN_WIDTH,
  displayName,
  FIRST_COLUMN_WIDTH,
  lastUpdatedText,
  monthShort,
  NARROW_DAY_COLUMN_WIDTH,
  NARROW_FIRST_COLUMN_WIDTH,
  NARROW_ROW_HEIGHT,
  NO_AREA,
  NO_AREA_LABEL,
  NOTE_ICON_CLASS,
  openingColumn,
  ROW_HEIGHT,
  rowLookup,
  VIEW_NAMES,
  VIEW_STEPS,
  viewLabel,
} from '../lib/grid-model';
import { AreaFilter, FacilitatorFilter, GRID_SEARCH_DELAY_MS, GridSearch } from './grid-filters';

export interface ScheduleGridProps {
  /** the facilitators' rows read so far, in the grid's order (the server's) */
  rows: StaffGridRow[];
  /** how many facilitators the filters show, and how many there are */
  matching: number;
  total: number;
  /** every facilitator's area (NO_AREA for those without one): the area filter's options */
  areas: string[];
  /** more rows than those read: asked for as the last ones scroll into view */
  hasMore: boolean;
  onLoadMore: () => void;
  view: StaffView;
  date: DateString;
  today: DateString;
  onViewChange: (view: StaffView) => void;
  onDateChange: (date: DateString) => void;
  onCellClick: (user: PublicUser, date: DateString) => void;
  /** true while a new range is being fetched (the old one stays on screen) */
  isUpdating?: boolean;
  /** told what the filters choose whenever they change: the rows are read for them */
  onFiltersChange: (filters: GridFilterState) => void;
  /** shown in place of the count and the rows when they could not be read; the controls stay */
  problem?: ReactNode;
}

export interface GridFilterState {
  /** the areas chosen (NO_AREA for users without one); null when every area is */
  areas: string[] | null;
  /** facilitators left out by name */
  deselected: number[];
  /** what the search box holds, trimmed, once typing has paused */
  search: string;
}

/** The next page is asked for when the rows drawn reach this close to the last row read. */
const LOAD_AHEAD_ROWS = 10;

/** The grid scrolls within this share of the window's height. */
const GRID_MAX_HEIGHT_VH = 70;

const allAreaValues = (areas: readonly { value: string }[]) => new Set(areas.map((area) => area.value));

export function ScheduleGrid(props: ScheduleGridProps) {
  const { rows, matching, total, view, date, today, onViewChange, onDateChange } = props;
  const areas = useMemo(
    () => props.areas.map((value) => ({ value, label: value === NO_AREA ? NO_AREA_LABEL : value })),
    [props.areas],
  );

  // The areas chosen: null while every area is (at first, and whenever the person chooses them all
  // again), so an area that appears meanwhile (someone was given a new one) is shown too; a set of
  // the areas otherwise, the person's own choice.
  const [selectedAreas, setSelectedAreas] = useState<Set<string> | null>(null);
  const chosenAreas = selectedAreas ?? allAreaValues(areas);
  const chooseAreas = (next: Set<string>) =>
    setSelectedAreas(areas.every((area) => next.has(area.value)) ? null : next);
  const [deselected, setDeselected] = useState<Set<number>>(() => new Set());
  const [search, setSearch] = useState('');
  const searched = useSettledValue(search.trim(), GRID_SEARCH_DELAY_MS);
  const days = useMemo(() => staffViewDays(view, date), [view, date]);

  const { onFiltersChange } = props;
  useEffect(() => {
    const everyArea = !selectedAreas || areas.every((area) => selectedAreas.has(area.value));
    onFiltersChange({
      areas: everyArea ? null : [...selectedAreas],
      deselected: [...deselected],
      search: searched,
    });
  }, [onFiltersChange, selectedAreas, areas, deselected, searched]);

  // bumped by Today, so pressing it again brings today's week back into view after scrolling away
  const [scrollRequest, setScrollRequest] = useState(0);
  const navigate = (action: NavigationAction) => {
    onDateChange(navigateStaffView(view, date, action, today));
    if (action === 'today') setScrollRequest((count) => count + 1);
  };

  return (
    <div className="grid gap-3" data-testid="schedule-grid" data-view={view}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <fieldset className="inline-flex rounded-md border p-0.5">
            <legend className="sr-only">View</legend>
            {STAFF_VIEWS.map((option) => (
              <Button
                key={option}
                size="xs"
                variant={view === option ? 'default' : 'ghost'}
                aria-pressed={view === option}
                onClick={() => onViewChange(option)}
              >
                {VIEW_NAMES[option]}
              </Button>
            ))}
          </fieldset>
          {/* previous, Today, next and what they show stay together on one line, a phone's too */}
          <div className="flex min-w-0 items-center gap-2" data-testid="grid-navigation">
            <Button
              variant="outline"
              size="icon"
              aria-label={`Previous ${VIEW_STEPS[view]}`}
              onClick={() => navigate('previous')}
            >
              <ChevronLeft aria-hidden />
            </Button>
            <Button variant="outline" size="sm" onClick={() => navigate('today')}>
              Today
            </Button>
            <Button
              variant="outline"
              size="icon"
              aria-label={`Next ${VIEW_STEPS[view]}`}
              onClick={() => navigate('next')}
            >
              <ChevronRight aria-hidden />
            </Button>
            <h3
              className="min-w-0 font-semibold text-lg sm:min-w-40"
              data-testid="grid-label"
              aria-live="polite"
            >
              {viewLabel(view, date)}
            </h3>
          </div>
        </div>
        <div className="flex w-full flex-wrap items-center gap-2 sm:w-auto">
          <GridSearch value={search} onChange={setSearch} />
          <FacilitatorFilter total={total} deselected={deselected} onChange={setDeselected} />
          <AreaFilter options={areas} selected={chosenAreas} onChange={chooseAreas} />
        </div>
      </div>
      {props.problem ? (
        props.problem
      ) : (
        <>
          {/* a status, so a screen reader hears how many a search or a filter leaves */}
          <p className="text-muted-foreground text-sm" data-testid="grid-count" role="status">
            Showing {matching} of {total} facilitators
            {props.isUpdating ? <span className="ml-2">(updating...)</span> : null}
          </p>
          <GridTable
            rows={rows}
            matching={matching}
            hasMore={props.hasMore}
            onLoadMore={props.onLoadMore}
            days={days}
            view={view}
            today={today}
            scrollRequest={scrollRequest}
            onCellClick={props.onCellClick}
            emptyText={
              total === 0
                ? 'No facilitators yet.'
                : searched
                  ? 'No facilitators match the search and the selected filters.'
                  : 'No facilitators match the selected filters.'
            }
          />
        </>
      )}
    </div>
  );
}

interface GridTableProps {
  rows: StaffGridRow[];
  matching: number;
  hasMore: boolean;
  onLoadMore: () => void;
  days: DateString[];
  view: StaffView;
  today: DateString;
  /** changes when Today is pressed */
  scrollRequest: number;
  onCellClick: ScheduleGridProps['onCellClick'];
  emptyText: string;
}

function GridTable({
  rows,
  matching,
  hasMore,
  onLoadMore,
  days,
  view,
  today,
  scrollRequest,
  onCellClick,
  emptyText,
}: GridTableProps) {
  const scrollRef = useRef<HTMLElement>(null);
  const narrow = useNarrowScreen();
  const firstColumnWidth = narrow ? NARROW_FIRST_COLUMN_WIDTH : FIRST_COLUMN_WIDTH;
  const available = useContentWidth(scrollRef);
  // A week's five columns at 120 px fill two thirds of a desktop card, two weeks' ten at 80 px most
  // of it; they widen to fill it (never below their width). A month's columns keep 80 px: the month
  // scrolls anyway.
  const columnWidth = narrow
    ? NARROW_DAY_COLUMN_WIDTH
    : view !== 'month' && days.length > 0
      ? Math.max(DAY_COLUMN_WIDTH[view], Math.floor((available - firstColumnWidth) / days.length))
      : DAY_COLUMN_WIDTH[view];
  const totalWidth = firstColumnWidth + columnWidth * days.length;

  // A month opens scrolled to this week, not at the 1st: late in the month the current week is
  // otherwise off to the right. Other months open at their start.
  const openAt = openingColumn(days, today) * columnWidth;
  // before the browser paints
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrollRequest is the point: Today scrolls even when the range is unchanged
  useLayoutEffect(() => {
    const scroller = scrollRef.current;
    if (scroller) scroller.scrollLeft = openAt;
  }, [openAt, days[0], scrollRequest]);
  const rowHeight = narrow ? NARROW_ROW_HEIGHT : ROW_HEIGHT;
  // On a desktop the grid scrolls within GRID_MAX_HEIGHT_VH of the window, its header and names
  // staying in view. On a phone a scroll inside the page's scroll is hard to handle, so the grid
  // is as tall as its rows and the page scrolls it; the rows in the window are drawn (ADR 80).
  const inGrid = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 8,
    enabled: !narrow,
    // The scroller's height before it can be measured (at most GRID_MAX_HEIGHT_VH of the window),
    // so the rows are drawn in the grid's own first render. Without it that render drew none, and
    // the rows came in a second render that React runs at once, uninterrupted, after the
    // virtualizer's first measure.
    initialRect: { width: 0, height: Math.round((window.innerHeight * GRID_MAX_HEIGHT_VH) / 100) },
  });
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const rowsTop = usePageOffset(bodyRef, narrow);
  const onPage = useWindowVirtualizer({
    count: rows.length,
    estimateSize: () => rowHeight,
    overscan: 8,
    enabled: narrow,
    scrollMargin: rowsTop,
    initialRect: { width: 0, height: window.innerHeight },
  });
  const virtualizer = narrow ? onPage : inGrid;
  // the window's rows are placed from the top of the page, the grid's from the top of its body
  const rowOffset = narrow ? rowsTop : 0;
  // once per range rather than once per cell of every row mounted while scrolling
  const columns = useMemo(
    () =>
      days.map((day, position) => ({
        day,
        position,
        className: dayOfWeek(day) === MONDAY ? CELL_TD_MONDAY : CELL_TD,
      })),
    [days],
  );
  // the next page is asked for as the last rows read come into view
  const lastDrawn = virtualizer.getVirtualItems().at(-1)?.index ?? -1;
  useEffect(() => {
    if (hasMore && lastDrawn >= rows.length - LOAD_AHEAD_ROWS) onLoadMore();
  }, [hasMore, lastDrawn, rows.length, onLoadMore]);

  return (
    <section
      ref={scrollRef}
      className="relative overflow-auto rounded-md border bg-background"
      // a day brought into view (Tab, or scrolled to) stops beside the sticky names, not under them
      style={{
        maxHeight: narrow ? undefined : `${GRID_MAX_HEIGHT_VH}vh`,
        scrollPaddingLeft: firstColumnWidth,
      }}
      data-testid="grid-scroll"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable), even when it holds no buttons
      tabIndex={0}
      aria-label="Schedule grid, scrollable"
    >
      <table
        className="grid border-collapse"
        aria-label="Facilitator schedule"
        aria-rowcount={matching + 1}
        aria-colcount={days.length + 1}
        // the day columns' width, read by every cell's class instead of an inline style per cell
        style={{ width: totalWidth, '--day-column-width': `${columnWidth}px` } as CSSProperties}
      >
        <thead className="sticky top-0 z-20 grid bg-background">
          <tr aria-rowindex={1} className="flex border-b">
            <th
              scope="col"
              aria-colindex={1}
              className="sticky left-0 z-30 flex items-center border-r bg-background px-3 py-2 text-left font-medium text-sm"
              style={{ width: firstColumnWidth, minWidth: firstColumnWidth }}
              data-testid="first-column-header"
            >
              Facilitator
            </th>
            {days.map((day, position) => {
              const { weekday, day: dayNumber } = columnLabel(day);
              // where a week or two weeks run into the next month, its first day says which
              const newMonth =
                view !== 'month' && position > 0 && day.slice(0, 7) !== days[position - 1]!.slice(0, 7);
              return (
                <th
                  key={day}
                  scope="col"
                  aria-colindex={position + 2}
                  data-date={day}
                  data-testid="day-header"
                  className={cn(
                    'flex flex-col items-center justify-center py-1.5 text-xs',
                    dayOfWeek(day) === MONDAY ? 'border-l-[3px] border-l-foreground/40' : 'border-l',
                    day === today ? 'bg-accent font-semibold text-accent-foreground' : 'font-normal',
                  )}
                  style={{ width: columnWidth, minWidth: columnWidth }}
                  aria-current={day === today ? 'date' : undefined}
                >
                  <span>{weekday}</span>
                  <span className="font-semibold text-sm">
                    {dayNumber}
                    {newMonth ? ` ${monthShort(day)}` : null}
                  </span>
                </th>
              );
            })}
          </tr>
        </thead>
        {rows.length === 0 ? (
          <tbody className="grid">
            <tr className="flex">
              <td
                colSpan={days.length + 1}
                className="flex-1 p-6 text-center text-muted-foreground text-sm"
                data-testid="grid-empty"
              >
                {emptyText}
              </td>
            </tr>
          </tbody>
        ) : (
          <tbody ref={bodyRef} className="relative grid" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = rows[item.index]!;
              return (
                <GridRow
                  key={row.user.id}
                  row={row}
                  rowIndex={item.index + 2}
                  top={item.start - rowOffset}
                  height={rowHeight}
                  narrow={narrow}
                  columns={columns}
                  totalWidth={totalWidth}
                  firstColumnWidth={firstColumnWidth}
                  onCellClick={onCellClick}
                />
              );
            })}
          </tbody>
        )}
      </table>
    </section>
  );
}

/**
 * Where an element starts from the top of the page (not the window), measured after each render
 * while `active`: the rows of a grid the page scrolls are placed from there.
 */
function usePageOffset(ref: React.RefObject<HTMLElement | null>, active: boolean): number {
  const [offset, setOffset] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!active || !element) return;
    const top = Math.round(element.getBoundingClientRect().top + window.scrollY);
    if (top !== offset) setOffset(top);
  });
  return offset;
}

/** The inner width of the scroll area, followed as the window is resized. */
function useContentWidth(ref: React.RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    setWidth(element.clientWidth);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

interface GridColumn {
  day: DateString;
  /** its place among the range's days, from 0 */
  position: number;
  /** the cell's class: Mondays carry the thick week divider */
  className: string;
}

/**
 * Class names built once: a scroll step mounts a few hundred cells, and building their classes per
 * cell showed up in the scroll profile. No CSS transition on the cells either: hundreds of
 * transitioned elements enter at every step.
 */
const CELL_TD_BASE = 'w-(--day-column-width) min-w-(--day-column-width) p-0.5';
const CELL_TD = cn(CELL_TD_BASE, 'border-l');
const CELL_TD_MONDAY = cn(CELL_TD_BASE, 'border-l-[3px] border-l-foreground/40');
const CELL_BUTTON_BASE =
  'flex size-full flex-col items-center justify-center gap-1 rounded-sm outline-none hover:brightness-95 focus-visible:ring-[3px] focus-visible:ring-ring';
const CELL_BUTTON_CLASS = Object.fromEntries(
  Object.entries(CELL_TONE_CLASS).map(([tone, className]) => [tone, cn(CELL_BUTTON_BASE, className)]),
) as Record<CellTone, string>;
const NOTE_ICON_FULL_CLASS = Object.fromEntries(
  Object.entries(NOTE_ICON_CLASS).map(([priority, className]) => [
    priority,
    cn('size-4 rounded-full bg-background p-0.5', className),
  ]),
) as Record<Priority, string>;

interface GridRowProps {
  row: StaffGridRow;
  rowIndex: number;
  top: number;
  height: number;
  /** a phone's screen: the name cell's text on more lines */
  narrow: boolean;
  columns: GridColumn[];
  totalWidth: number;
  firstColumnWidth: number;
  onCellClick: ScheduleGridProps['onCellClick'];
}

const GridRow = memo(function GridRow({
  row,
  rowIndex,
  top,
  height,
  narrow,
  columns,
  totalWidth,
  firstColumnWidth,
  onCellClick,
}: GridRowProps) {
  const { user, safeguarding } = row;
  const lookup = useMemo(() => rowLookup(row), [row]);
  return (
    <tr
      aria-rowindex={rowIndex}
      className="absolute top-0 left-0 flex border-b"
      style={{ height, width: totalWidth, transform: `translateY(${top}px)` }}
      data-testid="grid-row"
      data-user-id={user.id}
    >
      <th
        scope="row"
        aria-colindex={1}
        className="sticky left-0 z-10 flex flex-col justify-center overflow-hidden border-r bg-background px-2 text-left font-normal text-xs leading-tight sm:px-3"
        style={{ width: firstColumnWidth, minWidth: firstColumnWidth }}
      >
        {/* the name on more than one line (three on a phone), so two people whose names start
            alike can be told apart; the safeguarding badge beside the email, below it */}
        <span
          className={cn(
            'font-medium [overflow-wrap:anywhere]',
            narrow ? 'line-clamp-3 text-xs leading-4' : 'line-clamp-2 text-sm leading-[15px]',
          )}
          data-testid="row-name"
          title={displayName(user)}
        >
          {displayName(user)}
        </span>
        <span className="flex min-w-0 items-center gap-1">
          <SafeguardingBadge state={safeguarding.state} reasons={safeguarding.reasons} compact />
          {user.email ? (
            <span
              className={cn('truncate text-muted-foreground', narrow && 'text-[11px]')}
              data-testid="row-email"
            >
              {user.email}
            </span>
          ) : null}
        </span>
        <span
          className={cn(
            'text-muted-foreground',
            narrow ? 'line-clamp-2 text-[11px] leading-3.5' : 'truncate leading-3.5',
          )}
          data-testid="row-updated"
        >
          {lastUpdatedText(user, lookup.latestDate)}
        </span>
      </th>
      {columns.map(({ day, position, className }) => {
        const availability = lookup.availability(day);
        const bookingCount = lookup.bookingCount(day);
        const priority = lookup.notePriority(day);
        return (
          <GridCell
            key={day}
            user={user}
            day={day}
            columnIndex={position + 2}
            className={className}
            tone={cellTone(availability?.status, bookingCount > 0)}
            description={cellDescription(user, day, availability?.status, bookingCount, priority)}
            booked={bookingCount > 0}
            priority={priority}
            onCellClick={onCellClick}
          />
        );
      })}
    </tr>
  );
});

interface GridCellProps {
  user: PublicUser;
  day: DateString;
  /** its aria-colindex: some columns may not be drawn */
  columnIndex: number;
  className: string;
  tone: CellTone;
  description: string;
  booked: boolean;
  priority: Priority | undefined;
  onCellClick: ScheduleGridProps['onCellClick'];
}

/** Plain values in, so a row that renders again (new notes, a saved day) redraws only changed cells. */
const GridCell = memo(function GridCell({
  user,
  day,
  columnIndex,
  className,
  tone,
  description,
  booked,
  priority,
  onCellClick,
}: GridCellProps) {
  return (
    <td className={className} aria-colindex={columnIndex}>
      <button
        type="button"
        className={CELL_BUTTON_CLASS[tone]}
        aria-label={description}
        title={description}
        onClick={() => onCellClick(user, day)}
        data-testid="grid-cell"
        data-date={day}
        data-tone={tone}
        data-note={priority}
      >
        {booked ? (
          <span className="rounded bg-primary px-0.5 py-px font-medium text-[9px] text-primary-foreground leading-tight sm:px-1 sm:text-[10px]">
            Booked
          </span>
        ) : null}
        {priority ? (
          <StickyNote aria-hidden className={NOTE_ICON_FULL_CLASS[priority]} data-testid="note-icon" />
        ) : null}
      </button>
    </td>
  );
});
