import type { SafeguardingState } from '@shared/safeguarding';
import type { PublicUser } from '@shared/schemas/users';
import {
  ChevronDown,
  Eraser,
  FileArchive,
  History,
  KeyRound,
  LockOpen,
  Mail,
  Pencil,
  ShieldCheck,
  Trash2,
  UserCheck,
  UserX,
} from 'lucide-react';
import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
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
import { usePasswordInvitations } from '../api/password-invitation-api';
import { roleLook, userName } from '../lib/users';
import { InvitationState } from './invitation-state';
import { MicrosoftInviteDialog, useMicrosoftInviteAllowed } from './microsoft-invite';
import { PasswordInviteDialog } from './password-invite';

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
 * it at a desktop's width: the Actions button's height and the cells' padding. An estimate short of it made the windowed table find, once
 * it had measured its first rows, that fewer fitted, and draw itself a second time as it opened.
 */
const ROW_HEIGHT = 61;
/** On a phone the safeguarding state and role sit under the name: a line more. */
const NARROW_ROW_HEIGHT = 93;
const NO_USERS: PublicUser[] = [];

/** The next page is asked for when the rows drawn reach this close to the last row read. */
const LOAD_AHEAD_ROWS = 10;

interface UsersTableProps {
  /** Already sorted: the pages read so far. */
  users: PublicUser[];
  /** how many rows there are, every page together (default: those given) */
  total?: number | undefined;
  /** read the next page (called as the last rows read come into view) */
  onLoadMore?: (() => void) | undefined;
  currentUserId: number | null;
  onEdit: (user: PublicUser) => void;
  onDelete: (user: PublicUser) => void;
  /** clear the account's sign-in pauses (after failed sign-ins) */
  onUnlock: (user: PublicUser) => void;
  /** deactivate a leaver's account (false) or reactivate it (true) */
  onSetActive?: ((user: PublicUser, active: boolean) => void) | undefined;
  /** when given, each row has a History action (the route composes the history feature) */
  onHistory?: ((user: PublicUser) => void) | undefined;
  /** shown when there are no rows (a search that matches nobody) */
  emptyText?: string | undefined;
  /** each facilitator's safeguarding state today; no column without it */
  safeguarding?: ReadonlyMap<number, { state: SafeguardingState; reasons: string[] }> | undefined;
  /** when given, facilitators' rows have a Safeguarding records action */
  onSafeguarding?: ((user: PublicUser) => void) | undefined;
  /** when given, every row has a Personal data action (viewing log, subject access, photo) */
  onDataProtection?: ((user: PublicUser) => void) | undefined;
  /** when given, every row but the caller's has "Erase personal data…" */
  onErase?: ((user: PublicUser) => void) | undefined;
}

export function UsersTable({
  users: listed,
  total = listed.length,
  onLoadMore,
  currentUserId,
  onEdit,
  onDelete,
  onUnlock,
  onSetActive,
  onHistory,
  emptyText,
  safeguarding,
  onSafeguarding,
  onDataProtection,
  onErase,
}: UsersTableProps) {
  const linkedToMicrosoft = useMicrosoftLinkedUserIds();
  // The list arrives in a synchronous update (a query's answer); its rows are drawn in a render
  // React can pause, so the page answers while they are drawn. A search is drawn the same way.
  const users = useDeferredValue(listed, NO_USERS);
  // until the first rows are drawn the table keeps their place, so what is below it does not move
  const firstDraw = users.length === 0 && listed.length > 0;
  // a thousand accounts draw only the rows in view, and are read a page at a time as they come
  // into view; the search (on the server) finds any of them
  // a phone shows the safeguarding state and role under the name, not in columns of their own
  const narrow = useNarrowScreen();
  const rowHeight = narrow ? NARROW_ROW_HEIGHT : ROW_HEIGHT;
  const columns = narrow ? 6 : safeguarding ? 8 : 7;
  const rowWindow = useRowWindow({
    count: users.length,
    total,
    estimateRowHeight: rowHeight,
    rowKey: (index) => users[index]!.id,
  });
  const scrolls = Math.max(users.length, listed.length, total) > WINDOWED_FROM_ROWS;
  const lastDrawn = rowWindow.rows.at(-1) ?? -1;
  const readAll = listed.length >= total;
  useEffect(() => {
    if (!readAll && users.length > 0 && lastDrawn >= users.length - LOAD_AHEAD_ROWS) onLoadMore?.();
  }, [readAll, lastDrawn, users.length, onLoadMore]);
  const inviteAllowed = useMicrosoftInviteAllowed();
  const [inviting, setInviting] = useState<PublicUser | null>(null);
  const [invitingByEmail, setInvitingByEmail] = useState<PublicUser | null>(null);
  const invitationList = usePasswordInvitations().data;
  const invitations = useMemo(
    () => new Map((invitationList ?? []).map((state) => [state.userId, state])),
    [invitationList],
  );
  const now = new Date();
  return (
    <>
      <Table
        containerLabel="Facilitators"
        aria-rowcount={Math.max(total, users.length) + 1}
        scrollRef={scrolls ? rowWindow.scrollRef : undefined}
      >
        <TableHeader className={scrolls ? 'sticky top-0 z-20 bg-card' : undefined}>
          <TableRow highlight={false} aria-rowindex={1}>
            <TableHead scope="col">Name</TableHead>
            {safeguarding && !narrow ? <TableHead scope="col">Safeguarding</TableHead> : null}
            <TableHead scope="col">Username</TableHead>
            <TableHead scope="col">Email</TableHead>
            <TableHead scope="col">Freelancer ID</TableHead>
            <TableHead scope="col">Area</TableHead>
            {narrow ? null : <TableHead scope="col">Role</TableHead>}
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
                      {narrow ? (
                        <span className="mt-1 flex flex-wrap gap-1" data-testid="user-badges">
                          {checks ? (
                            <SafeguardingBadge state={checks.state} reasons={checks.reasons} />
                          ) : null}
                          <RoleBadge role={user.role} />
                        </span>
                      ) : null}
                      <InvitationState
                        state={invitations.get(user.id)}
                        now={now}
                        onSend={() => setInvitingByEmail(user)}
                      />
                      {user.anonymisedAt || user.deactivatedAt ? (
                        <span
                          className="mt-1 inline-flex items-center rounded-full border px-2 py-0.5 font-normal text-muted-foreground text-xs"
                          data-testid="user-state"
                        >
                          {user.anonymisedAt ? 'Anonymised' : 'Deactivated'}
                        </span>
                      ) : null}
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
                    {safeguarding && !narrow ? (
                      <TableCell data-testid="user-safeguarding">
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
                    {narrow ? null : (
                      <TableCell>
                        <RoleBadge role={user.role} />
                      </TableCell>
                    )}
                    <TableCell className="sticky right-0 bg-card text-right">
                      <RowActions
                        name={name}
                        self={self}
                        onHistory={onHistory ? () => onHistory(user) : undefined}
                        onSafeguarding={onSafeguarding && checks ? () => onSafeguarding(user) : undefined}
                        onDataProtection={onDataProtection ? () => onDataProtection(user) : undefined}
                        onErase={onErase && !self ? () => onErase(user) : undefined}
                        onEdit={() => onEdit(user)}
                        onInvite={inviteAllowed(user) ? () => setInviting(user) : undefined}
                        onInviteByEmail={() => setInvitingByEmail(user)}
                        onUnlock={() => onUnlock(user)}
                        onSetActive={
                          onSetActive && !self && !user.anonymisedAt
                            ? () => onSetActive(user, user.deactivatedAt !== null)
                            : undefined
                        }
                        active={user.deactivatedAt === null}
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
      <PasswordInviteDialog user={invitingByEmail} onClose={() => setInvitingByEmail(null)} />
      <MicrosoftInviteDialog
        user={inviting}
        linked={inviting !== null && linkedToMicrosoft.has(inviting.id)}
        onClose={() => setInviting(null)}
      />
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
  onDataProtection,
  onErase,
  onEdit,
  onInvite,
  onInviteByEmail,
  onUnlock,
  onSetActive,
  active,
  onDelete,
}: {
  name: string;
  self: boolean;
  onHistory: (() => void) | undefined;
  onSafeguarding: (() => void) | undefined;
  onDataProtection: (() => void) | undefined;
  onErase: (() => void) | undefined;
  onEdit: () => void;
  onInvite: (() => void) | undefined;
  onInviteByEmail: () => void;
  onUnlock: () => void;
  onSetActive: (() => void) | undefined;
  active: boolean;
  onDelete: () => void;
}) {
  // The action chosen runs once the menu has closed and given focus back to its button, so the
  // dialog it opens gives focus back to that button in turn (a menu item has gone by then).
  const chosen = useRef<(() => void) | null>(null);
  const choose = (action: () => void) => () => {
    chosen.current = action;
  };
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" aria-label={`Actions for ${name}`}>
          Actions
          <ChevronDown aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent
        align="end"
        className="w-60"
        onCloseAutoFocus={() => {
          const action = chosen.current;
          chosen.current = null;
          action?.();
        }}
      >
        {onHistory ? (
          <DropdownMenuItem onSelect={choose(onHistory)}>
            <History aria-hidden />
            History
          </DropdownMenuItem>
        ) : null}
        {onSafeguarding ? (
          <DropdownMenuItem onSelect={choose(onSafeguarding)}>
            <ShieldCheck aria-hidden />
            Safeguarding records
          </DropdownMenuItem>
        ) : null}
        {onDataProtection ? (
          <DropdownMenuItem onSelect={choose(onDataProtection)}>
            <FileArchive aria-hidden />
            Personal data
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuItem onSelect={choose(onEdit)}>
          <Pencil aria-hidden />
          Edit
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={choose(onInviteByEmail)}>
          <Mail aria-hidden />
          Invite to set a password
        </DropdownMenuItem>
        {onInvite ? (
          <DropdownMenuItem onSelect={choose(onInvite)}>
            <KeyRound aria-hidden />
            Invite to sign in with Microsoft
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuItem onSelect={choose(onUnlock)}>
          <LockOpen aria-hidden />
          Clear sign-in pauses
        </DropdownMenuItem>
        {onSetActive ? (
          <DropdownMenuItem onSelect={choose(onSetActive)}>
            {active ? <UserX aria-hidden /> : <UserCheck aria-hidden />}
            {active ? 'Deactivate (a leaver)' : 'Reactivate'}
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuSeparator />
        {onErase ? (
          <DropdownMenuItem variant="destructive" onSelect={choose(onErase)}>
            <Eraser aria-hidden />
            Erase personal data…
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuItem variant="destructive" disabled={self} onSelect={choose(onDelete)}>
          <Trash2 aria-hidden />
          {self ? 'Delete (not your own account)' : 'Delete'}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
