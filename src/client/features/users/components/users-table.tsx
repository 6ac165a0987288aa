import type { SafeguardingState } from '@shared/safeguarding';
import type { PublicUser } from '@shared/schemas/users';
import { ChevronDown, History, KeyRound, LockOpen, Pencil, ShieldCheck, Trash2 } from 'lucide-react';
import { useDeferredValue, useState } from 'react';
import { SafeguardingBadge } from '@/components/safeguarding-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableMessage,
  TableRow,
} from '@/components/ui/table';
import { SpacerRow, useRowWindow, WINDOWED_FROM_ROWS } from '@/components/ui/windowed-rows';
import { useNarrowScreen } from '@/lib/use-narrow-screen';
import { cn } from '@/lib/utils';
import { useMicrosoftLinkedUserIds } from '../api/microsoft-invitation-api';
import { roleLook, userName } from '../lib/users';
import { MicrosoftInviteDialog, useMicrosoftInviteAllowed } from './microsoft-invite';

const ROLE_BADGE = {
  staff: { variant: 'default', className: '' },
  facilitator: { variant: 'secondary', className: '' },
  other: { variant: 'outline', className: 'border-dashed' },
} as const;

function RoleBadge({ role }: { role: string }) {
  const look = roleLook(role);
  const { variant, className } = ROLE_BADGE[look];
  return (
    <Badge variant={variant} className={cn('capitalize', className)} data-role-look={look}>
      {role}
    </Badge>
  );
}

// Long addresses wrap rather than push the Role column under the pinned Actions column, at the
// places an address can be read across lines (see Breakable), not in the middle of a word.
const wrap = 'min-w-44 max-w-64 break-words';

/** An address or username that may break after "@" and "." rather than anywhere. */
function Breakable({ text }: { text: string }) {
  const parts = text.split(/(?<=[@.])/);
  return (
    <>
      {parts.map((part, index) => (
        <span key={index}>
          {part}
          {index < parts.length - 1 ? <wbr /> : null}
        </span>
      ))}
    </>
  );
}

const dash = (value: string | null) => (value?.trim() ? value : '-');

/**
 * A row with one line of text in each cell (a long address wraps onto more), as the browser draws
 * it at a phone's and a desktop's width. An estimate short of it made the windowed table find, once
 * it had measured its first rows, that fewer fitted, and draw itself a second time as it opened.
 */
const ROW_HEIGHT = 61;
/** On a phone the safeguarding state and role sit under the name: a line more. */
const NARROW_ROW_HEIGHT = 87;
const NO_USERS: PublicUser[] = [];

interface UsersTableProps {
  /** Already sorted. */
  users: PublicUser[];
  currentUserId: number | null;
  onEdit: (user: PublicUser) => void;
  onDelete: (user: PublicUser) => void;
  /** clear the account's sign-in pauses (after failed sign-ins) */
  onUnlock: (user: PublicUser) => void;
  /** when given, each row has a History action (the route composes the history feature) */
  onHistory?: ((user: PublicUser) => void) | undefined;
  /** shown when there are no rows (a search that matches nobody) */
  emptyText?: string | undefined;
  /** each facilitator's safeguarding state today; no column without it */
  safeguarding?: ReadonlyMap<number, { state: SafeguardingState; reasons: string[] }> | undefined;
  /** when given, facilitators' rows have a Safeguarding records action */
  onSafeguarding?: ((user: PublicUser) => void) | undefined;
}

export function UsersTable({
  users: listed,
  currentUserId,
  onEdit,
  onDelete,
  onUnlock,
  onHistory,
  emptyText,
  safeguarding,
  onSafeguarding,
}: UsersTableProps) {
  const linkedToMicrosoft = useMicrosoftLinkedUserIds();
  const columns = safeguarding ? 8 : 7;
  // The list arrives in a synchronous update (a query's answer); its rows are drawn in a render
  // React can pause, so the page answers while they are drawn. A search is drawn the same way.
  const users = useDeferredValue(listed, NO_USERS);
  // until the first rows are drawn the table keeps their place, so what is below it does not move
  const firstDraw = users.length === 0 && listed.length > 0;
  // a thousand accounts draw only the rows in view; the search finds any of them
  const rowHeight = useNarrowScreen() ? NARROW_ROW_HEIGHT : ROW_HEIGHT;
  const rowWindow = useRowWindow({
    count: users.length,
    estimateRowHeight: rowHeight,
    rowKey: (index) => users[index]!.id,
  });
  const scrolls = Math.max(users.length, listed.length) > WINDOWED_FROM_ROWS;
  const inviteAllowed = useMicrosoftInviteAllowed();
  const [inviting, setInviting] = useState<PublicUser | null>(null);
  return (
    <>
      <Table
        containerLabel="Facilitators"
        aria-rowcount={users.length + 1}
        scrollRef={scrolls ? rowWindow.scrollRef : undefined}
      >
        <TableHeader className={scrolls ? 'sticky top-0 z-20 bg-card' : undefined}>
          <TableRow highlight={false} aria-rowindex={1}>
            <TableHead scope="col">Name</TableHead>
            {safeguarding ? (
              <TableHead scope="col" className="hidden sm:table-cell">
                Safeguarding
              </TableHead>
            ) : null}
            <TableHead scope="col">Username</TableHead>
            <TableHead scope="col">Email</TableHead>
            <TableHead scope="col">Freelancer ID</TableHead>
            <TableHead scope="col">Area</TableHead>
            <TableHead scope="col" className="hidden sm:table-cell">
              Role
            </TableHead>
            <TableHead scope="col" align="right" className="sticky right-0 bg-card">
              Actions
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {firstDraw ? (
            <SpacerRow height={listed.length * rowHeight} columns={columns} />
          ) : users.length === 0 ? (
            <TableMessage colSpan={columns}>
              {emptyText ?? 'No accounts yet. Use "Add Facilitator" to create one.'}
            </TableMessage>
          ) : (
            <>
              <SpacerRow height={rowWindow.before} columns={columns} />
              {rowWindow.rows.map((position) => {
                const user = users[position]!;
                const name = userName(user);
                const self = user.id === currentUserId;
                const checks = safeguarding?.get(user.id);
                return (
                  <TableRow
                    key={user.id}
                    data-testid={`user-row-${user.id}`}
                    aria-rowindex={position + 2}
                    data-index={position}
                    ref={rowWindow.measureRow}
                  >
                    <TableCell className="font-medium">
                      {/* a long name wraps; on a phone the safeguarding state and role sit under it */}
                      <span
                        className="block min-w-36 max-w-56 whitespace-normal [overflow-wrap:anywhere]"
                        title={name}
                      >
                        <span data-testid="user-name">{name}</span>
                        {self ? <span className="ml-1 font-normal text-muted-foreground">(you)</span> : null}
                      </span>
                      <span className="mt-1 flex flex-wrap gap-1 sm:hidden" data-testid="user-badges">
                        {checks ? <SafeguardingBadge state={checks.state} reasons={checks.reasons} /> : null}
                        <RoleBadge role={user.role} />
                      </span>
                      {linkedToMicrosoft.has(user.id) ? (
                        <span
                          className="mt-1 inline-flex items-center gap-1 rounded-full border px-2 py-0.5 font-normal text-muted-foreground text-xs"
                          data-testid="user-microsoft-linked"
                        >
                          <KeyRound className="size-3" aria-hidden />
                          Linked to Microsoft
                        </span>
                      ) : null}
                    </TableCell>
                    {safeguarding ? (
                      <TableCell data-testid="user-safeguarding" className="hidden sm:table-cell">
                        {checks ? <SafeguardingBadge state={checks.state} reasons={checks.reasons} /> : '-'}
                      </TableCell>
                    ) : null}
                    <TableCell wrap className={wrap}>
                      <Breakable text={user.username} />
                    </TableCell>
                    <TableCell wrap className={wrap}>
                      {user.email?.trim() ? <Breakable text={user.email} /> : '-'}
                    </TableCell>
                    <TableCell>{dash(user.freelancerId)}</TableCell>
                    <TableCell wrap className="min-w-28 max-w-48 break-words">
                      {dash(user.area)}
                    </TableCell>
                    <TableCell className="hidden sm:table-cell">
                      <RoleBadge role={user.role} />
                    </TableCell>
                    <TableCell className="sticky right-0 bg-card text-right">
                      <RowActions
                        name={name}
                        self={self}
                        onHistory={onHistory ? () => onHistory(user) : undefined}
                        onSafeguarding={onSafeguarding && checks ? () => onSafeguarding(user) : undefined}
                        onEdit={() => onEdit(user)}
                        onInvite={inviteAllowed(user) ? () => setInviting(user) : undefined}
                        onUnlock={() => onUnlock(user)}
                        onDelete={() => onDelete(user)}
                      />
                    </TableCell>
                  </TableRow>
                );
              })}
              <SpacerRow height={rowWindow.after} columns={columns} />
            </>
          )}
        </TableBody>
      </Table>
      <MicrosoftInviteDialog user={inviting} onClose={() => setInviting(null)} />
    </>
  );
}

/**
 * One account's actions, named in words in a menu: History, Safeguarding records, Edit, the Microsoft
 * invitation, Clear sign-in pauses and Delete. One button per row keeps the row's own columns in view
 * on a phone and at a laptop's width.
 */
function RowActions({
  name,
  self,
  onHistory,
  onSafeguarding,
  onEdit,
  onInvite,
  onUnlock,
  onDelete,
}: {
  name: string;
  self: boolean;
  onHistory: (() => void) | undefined;
  onSafeguarding: (() => void) | undefined;
  onEdit: () => void;
  onInvite: (() => void) | undefined;
  onUnlock: () => void;
  onDelete: () => void;
}) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`Actions for ${name}`}>
          Actions
          <ChevronDown aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60">
        {onHistory ? (
          <DropdownMenuItem onSelect={onHistory}>
            <History aria-hidden />
            History
          </DropdownMenuItem>
        ) : null}
        {onSafeguarding ? (
          <DropdownMenuItem onSelect={onSafeguarding}>
            <ShieldCheck aria-hidden />
            Safeguarding records
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuItem onSelect={onEdit}>
          <Pencil aria-hidden />
          Edit
        </DropdownMenuItem>
        {onInvite ? (
          <DropdownMenuItem onSelect={onInvite}>
            <KeyRound aria-hidden />
            Invite to sign in with Microsoft
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuItem onSelect={onUnlock}>
          <LockOpen aria-hidden />
          Clear sign-in pauses
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="destructive" disabled={self} onSelect={onDelete}>
          <Trash2 aria-hidden />
          {self ? 'Delete (not your own account)' : 'Delete'}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
