import { matchesSearch } from '@shared/collate';
import { ChevronDown, Search } from 'lucide-react';
import { type ReactNode, useId, useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { SpacerItem, useRowWindow, windowedItemProps } from '@/components/ui/windowed-rows';
import { useStaffUsers } from '../api/staff-grid-api';
import { displayName } from '../lib/grid-model';

function summary(selected: number, total: number): string {
  if (total === 0 || selected === 0) return 'None';
  if (selected === total) return `All (${total})`;
  return `${selected} of ${total}`;
}

/** A choice's usual height: a name and, below it, an email or area. */
const CHOICE_HEIGHT = 38;

function CheckRow({
  label,
  hint,
  checked,
  onChange,
}: {
  label: string;
  hint?: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-start gap-2 rounded-sm px-1 py-1 hover:bg-accent/60">
      <Checkbox
        id={id}
        checked={checked}
        onCheckedChange={(value) => onChange(value === true)}
        className="mt-0.5"
      />
      <Label
        plain
        htmlFor={id}
        className="grid min-w-0 flex-1 cursor-pointer items-center font-normal leading-none"
      >
        <span className="truncate">{label}</span>
        {hint ? <span className="truncate text-muted-foreground text-xs">{hint}</span> : null}
      </Label>
    </div>
  );
}

/**
 * A toolbar filter: a button that says how many of the choices are on, opening a panel of them.
 * The panel's content renders only while it is open.
 */
function FilterPopover({
  name,
  selected,
  total,
  testId,
  panelLabel,
  panelWidth,
  children,
}: {
  name: string;
  selected: number;
  total: number;
  testId: string;
  panelLabel: string;
  /** a Tailwind width class for the open panel */
  panelWidth: string;
  children: ReactNode;
}) {
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="outline" size="sm" data-testid={testId}>
          {name}: {summary(selected, total)}
          <ChevronDown aria-hidden />
        </Button>
      </PopoverTrigger>
      <PopoverContent className={`grid gap-2 ${panelWidth}`} aria-label={panelLabel}>
        {children}
      </PopoverContent>
    </Popover>
  );
}

function AllOrNone({
  onAll,
  onNone,
  disabled = false,
}: {
  onAll: () => void;
  onNone: () => void;
  /** while the choices are still being read, None would leave out nobody */
  disabled?: boolean;
}) {
  return (
    <div className="flex items-center gap-2">
      <Button size="sm" variant="secondary" onClick={onAll} disabled={disabled}>
        All
      </Button>
      <Button size="sm" variant="secondary" onClick={onNone} disabled={disabled}>
        None
      </Button>
    </div>
  );
}

export function FacilitatorFilter({
  total,
  deselected,
  onChange,
}: {
  /** how many facilitators there are */
  total: number;
  deselected: ReadonlySet<number>;
  onChange: (deselected: Set<number>) => void;
}) {
  // kept here rather than in the list, so a search is still there when the list opens again
  const [search, setSearch] = useState('');

  return (
    <FilterPopover
      name="Facilitators"
      selected={Math.max(0, total - deselected.size)}
      total={total}
      testId="facilitator-filter"
      panelLabel="Choose facilitators"
      panelWidth="w-80"
    >
      <FacilitatorChoices deselected={deselected} onChange={onChange} search={search} onSearch={setSearch} />
    </FilterPopover>
  );
}

/**
 * The list inside the open filter. A component of its own so that it renders only while the
 * popover is open, and reads the accounts then: the grid itself reads a page of them at a time.
 */
function FacilitatorChoices({
  deselected,
  onChange,
  search,
  onSearch,
}: {
  deselected: ReadonlySet<number>;
  onChange: (deselected: Set<number>) => void;
  search: string;
  onSearch: (search: string) => void;
}) {
  const users = useStaffUsers();
  const facilitators = useMemo(() => (users.data ?? []).filter((u) => u.role !== 'staff'), [users.data]);
  const matches = useMemo(() => {
    if (!search.trim()) return facilitators;
    // name, email, username or area: staff often know only one of them; accents aside
    return facilitators.filter((f) => matchesSearch(search, [displayName(f), f.email, f.username, f.area]));
  }, [facilitators, search]);

  // every facilitator drawn at once took 4 s at 5,000: a long list draws the rows in view, as the
  // long tables do
  const choices = useRowWindow({
    count: matches.length,
    estimateRowHeight: CHOICE_HEIGHT,
    rowKey: (index) => matches[index]!.id,
  });

  const toggle = (id: number, checked: boolean) => {
    const next = new Set(deselected);
    if (checked) next.delete(id);
    else next.add(id);
    onChange(next);
  };

  return (
    <>
      <AllOrNone
        onAll={() => onChange(new Set())}
        onNone={() => onChange(new Set(facilitators.map((f) => f.id)))}
        disabled={users.isPending}
      />
      <Input
        value={search}
        onChange={(event) => onSearch(event.target.value)}
        placeholder="Search by name, email or area"
        aria-label="Search facilitators"
        compact
      />
      {users.isPending ? (
        <p className="px-1 py-2 text-muted-foreground text-sm" role="status">
          Loading facilitators...
        </p>
      ) : matches.length === 0 ? (
        <p className="px-1 py-2 text-muted-foreground text-sm">No facilitators found.</p>
      ) : (
        <div ref={choices.scrollRef} className="relative max-h-72 overflow-y-auto">
          <ul aria-label="Facilitators">
            <SpacerItem height={choices.before} />
            {choices.rows.map((position) => {
              const f = matches[position]!;
              return (
                <li key={f.id} {...windowedItemProps(choices, position, matches.length)}>
                  <CheckRow
                    label={displayName(f)}
                    hint={[f.email, f.area].filter(Boolean).join(' · ')}
                    checked={!deselected.has(f.id)}
                    onChange={(checked) => toggle(f.id, checked)}
                  />
                </li>
              );
            })}
            <SpacerItem height={choices.after} />
          </ul>
        </div>
      )}
    </>
  );
}

export function AreaFilter({
  options,
  selected,
  onChange,
}: {
  options: { value: string; label: string }[];
  selected: ReadonlySet<string>;
  onChange: (selected: Set<string>) => void;
}) {
  const selectedCount = options.filter((o) => selected.has(o.value)).length;
  const toggle = (value: string, checked: boolean) => {
    const next = new Set(selected);
    if (checked) next.add(value);
    else next.delete(value);
    onChange(next);
  };
  return (
    <FilterPopover
      name="Areas"
      selected={selectedCount}
      total={options.length}
      testId="area-filter"
      panelLabel="Choose areas"
      panelWidth="w-64"
    >
      <AllOrNone
        onAll={() => onChange(new Set(options.map((o) => o.value)))}
        onNone={() => onChange(new Set())}
      />
      <div className="max-h-72 overflow-y-auto">
        {options.length === 0 ? (
          <p className="px-1 py-2 text-muted-foreground text-sm">No areas yet.</p>
        ) : (
          options.map((o) => (
            <CheckRow
              key={o.value}
              label={o.label}
              checked={selected.has(o.value)}
              onChange={(checked) => toggle(o.value, checked)}
            />
          ))
        )}
      </div>
    </FilterPopover>
  );
}

/** How long typing pauses before the grid is read for what was typed. */
export const GRID_SEARCH_DELAY_MS = 300;

/**
 * The grid's name search: the server finds the facilitators whose name or email holds what is typed,
 * once typing pauses. Escape empties it (as a browser's own search field does, in every browser).
 */
export function GridSearch({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="relative w-full sm:w-60">
      <Label htmlFor={id} className="sr-only">
        Search by name or email
      </Label>
      <Search
        aria-hidden
        className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
      />
      <Input
        id={id}
        type="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && value !== '') {
            event.preventDefault();
            onChange('');
          }
        }}
        placeholder="Search by name or email"
        autoComplete="off"
        spellCheck={false}
        maxLength={200}
        compact
        className="pl-8"
        data-testid="grid-search"
      />
    </div>
  );
}
