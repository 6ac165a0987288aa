import { zodResolver } from '@hookform/resolvers/zod';
import { SAFEGUARDING_STATE_LABELS, SAFEGUARDING_STATES, type SafeguardingState } from '@shared/safeguarding';
import { createUserForm, editUserForm, type PublicUser, type UserFormValues } from '@shared/schemas/users';
import { Plus, ShieldAlert } from 'lucide-react';
import { useCallback, useId, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api';
import { useSettledValue } from '@/lib/use-settled-value';
import {
  useCreateUser,
  useDeleteUser,
  useSetUserActive,
  useUnlockUser,
  useUpdateUser,
  useUsersPages,
} from '../api/users-api';
import { emptyUserForm, formFromUser, userChanges, userErrorMessage } from '../lib/users';
import { DeleteUserDialog } from './delete-user-dialog';
import { UserFormDialog } from './user-form-dialog';
import { UsersTable } from './users-table';

interface UserManagementProps {
  /** The signed-in staff member, whose own row cannot be deleted. */
  currentUserId: number | null;
  /** Where a signed-out visitor can sign in. */
  signInHref: string;
  /** Show a person's change history (composed in by the route); no History action without it. */
  onShowHistory?: (user: PublicUser) => void;
  /** facilitators' safeguarding states today (composed in by the route): a column and a filter */
  safeguarding?: ReadonlyMap<number, { state: SafeguardingState; reasons: string[] }>;
  /** open a facilitator's safeguarding records (composed in by the route) */
  onShowSafeguarding?: (user: PublicUser) => void;
  /** Personal data (viewing log, subject access, photo) for an account */
  onShowDataProtection?: (user: PublicUser) => void;
  /** Erase an account's personal data (a dialog of the page's) */
  onErase?: (user: PublicUser) => void;
}

/** How long typing pauses before the accounts are read for what was typed. */
export const USERS_SEARCH_DELAY_MS = 300;

const NO_AREAS: string[] = [];

/** User management: heading, Add Facilitator, the table and its three dialogs. */
export function UserManagement({
  currentUserId,
  signInHref,
  onShowHistory,
  safeguarding,
  onShowSafeguarding,
  onShowDataProtection,
  onErase,
}: UserManagementProps) {
  const createUser = useCreateUser();
  const updateUser = useUpdateUser();
  const deleteUser = useDeleteUser();
  const unlockUser = useUnlockUser();
  const setUserActive = useSetUserActive();

  const [createOpen, setCreateOpen] = useState(false);
  // what was typed is sent as typed (raw): the server trims, and an edit sends only what changed
  const createForm = useForm<UserFormValues>({
    resolver: zodResolver(createUserForm, undefined, { raw: true }),
    defaultValues: emptyUserForm,
  });
  const [editing, setEditing] = useState<PublicUser | null>(null);
  const editForm = useForm<UserFormValues>({
    resolver: zodResolver(editUserForm, undefined, { raw: true }),
    defaultValues: emptyUserForm,
  });
  const [deleting, setDeleting] = useState<PublicUser | null>(null);

  const [search, setSearch] = useState('');
  const filterId = useId();
  const [stateFilter, setStateFilter] = useState<SafeguardingState | ''>('');
  // the server searches and filters, once typing pauses; the filter only while its column is shown
  const searched = useSettledValue(search.trim(), USERS_SEARCH_DELAY_MS);
  const usersQuery = useUsersPages({ search: searched, safeguarding: safeguarding ? stateFilter : '' });
  const pages = usersQuery.data?.pages;
  const first = pages?.[0];
  const shownRows = useMemo(() => (pages ?? []).flatMap((page) => page.rows), [pages]);
  const filtering = Boolean(search.trim() || stateFilter);
  const areas = first?.areas ?? NO_AREAS;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = usersQuery;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const create = (values: UserFormValues) => {
    createUser.mutate(
      {
        username: values.username,
        ...(values.sendInvitation ? { sendInvitation: true } : { password: values.password }),
        displayName: values.displayName,
        email: values.email,
        freelancerId: values.freelancerId,
        area: values.area,
        role: 'facilitator',
      },
      {
        onSuccess: (created) => {
          setCreateOpen(false);
          createForm.reset(emptyUserForm);
          if (created.invitationEmailError) {
            toast({
              title: 'User created, invitation not sent',
              description: `The email was not sent: ${created.invitationEmailError}. Use "Send again" once email works.`,
              variant: 'destructive',
            });
            return;
          }
          toast({
            title: 'User created',
            description: values.sendInvitation
              ? `New facilitator has been added and invited by email to ${values.email.trim()}`
              : 'New facilitator has been added successfully',
            variant: 'success',
          });
        },
        onError: (error) => {
          toast({
            title: 'Error',
            description: userErrorMessage(error, 'Failed to create user'),
            variant: 'destructive',
          });
        },
      },
    );
  };

  const startEdit = (user: PublicUser) => {
    editForm.reset(formFromUser(user));
    setEditing(user);
  };

  const update = (values: UserFormValues) => {
    if (!editing) return;
    updateUser.mutate(
      {
        id: editing.id,
        body: userChanges(editing, values),
      },
      {
        onSuccess: () => {
          setEditing(null);
          toast({
            title: 'User updated',
            description: 'Facilitator information has been updated successfully',
            variant: 'success',
          });
        },
        onError: (error) => {
          toast({
            title: 'Error',
            description: userErrorMessage(error, 'Failed to update user'),
            variant: 'destructive',
          });
        },
      },
    );
  };

  const remove = (user: PublicUser) => {
    deleteUser.mutate(user.id, {
      onSuccess: () => {
        setDeleting(null);
        toast({
          title: 'User deleted',
          description: 'Facilitator has been removed successfully',
          variant: 'success',
        });
      },
      onError: (error) => {
        setDeleting(null);
        toast({
          title: 'Error',
          description: userErrorMessage(error, 'Failed to delete user'),
          variant: 'destructive',
        });
      },
    });
  };

  const setActive = (user: PublicUser, active: boolean) => {
    setUserActive.mutate(
      { id: user.id, active },
      {
        onSuccess: () => {
          toast({ title: active ? 'Account reactivated' : 'Account deactivated', variant: 'success' });
        },
        onError: (error) => {
          toast({
            title: 'Error',
            description: userErrorMessage(
              error,
              active ? 'Failed to reactivate the account' : 'Failed to deactivate the account',
            ),
            variant: 'destructive',
          });
        },
      },
    );
  };

  const unlock = (user: PublicUser) => {
    unlockUser.mutate(user.id, {
      onSuccess: (answer) => {
        toast({ title: 'Sign-in pauses cleared', description: answer.message, variant: 'success' });
      },
      onError: (error) => {
        toast({
          title: 'Error',
          description: userErrorMessage(error, 'Failed to clear sign-in pauses'),
          variant: 'destructive',
        });
      },
    });
  };

  return (
    <div className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="grid gap-1">
          <h1 className="font-semibold text-2xl tracking-tight">User Management</h1>
          <p className="text-muted-foreground text-sm">Manage facilitator accounts and information</p>
        </div>
        <Button onClick={() => setCreateOpen(true)} disabled={!usersQuery.isSuccess}>
          <Plus aria-hidden />
          Add Facilitator
        </Button>
      </div>

      {usersQuery.isError ? (
        <LoadError error={usersQuery.error} signInHref={signInHref} onRetry={() => usersQuery.refetch()} />
      ) : (
        <Card compact className="min-w-0">
          <CardHeader>
            <CardTitle>
              <h2 className="text-lg">{first ? `Facilitators (${first.total})` : 'Facilitators'}</h2>
            </CardTitle>
          </CardHeader>
          <CardContent narrow>
            {usersQuery.isSuccess ? (
              <div className="grid gap-3">
                <div className="flex flex-wrap items-center gap-3">
                  <Input
                    type="search"
                    value={search}
                    onChange={(event) => setSearch(event.target.value)}
                    placeholder="Name, email, freelancer ID or area"
                    aria-label="Search facilitators"
                    className="max-w-sm"
                  />
                  {safeguarding ? (
                    <div className="flex items-center gap-2 text-sm">
                      <label htmlFor={`${filterId}-safeguarding`} className="font-medium">
                        Safeguarding
                      </label>
                      <select
                        id={`${filterId}-safeguarding`}
                        value={stateFilter}
                        onChange={(event) => setStateFilter(event.target.value as SafeguardingState | '')}
                        className="h-9 rounded-md border border-input bg-background px-2 text-sm shadow-xs focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
                      >
                        <option value="">Any status</option>
                        {SAFEGUARDING_STATES.map((state) => (
                          <option key={state} value={state}>
                            {SAFEGUARDING_STATE_LABELS[state]}
                          </option>
                        ))}
                      </select>
                    </div>
                  ) : null}
                  {filtering && first ? (
                    <p className="text-muted-foreground text-sm" role="status">
                      {first.matching} of {first.total} shown
                    </p>
                  ) : null}
                </div>
                <UsersTable
                  users={shownRows}
                  total={first?.matching ?? shownRows.length}
                  onLoadMore={loadMore}
                  currentUserId={currentUserId}
                  onEdit={startEdit}
                  onDelete={setDeleting}
                  onUnlock={unlock}
                  onSetActive={setActive}
                  onHistory={onShowHistory}
                  safeguarding={safeguarding}
                  onSafeguarding={onShowSafeguarding}
                  onDataProtection={onShowDataProtection}
                  onErase={onErase}
                  emptyText={filtering ? 'No accounts match the search.' : undefined}
                />
              </div>
            ) : (
              // as tall as the table to come (a list is usually longer than the screen), so the
              // cards below it do not jump down when it arrives
              <div className="grid min-h-[70vh] content-start gap-3" role="status">
                <span className="sr-only">Loading accounts</span>
                {[0, 1, 2, 3].map((i) => (
                  <Skeleton key={i} className="h-9 w-full" />
                ))}
              </div>
            )}
          </CardContent>
        </Card>
      )}

      <UserFormDialog
        mode="create"
        open={createOpen}
        onOpenChange={setCreateOpen}
        form={createForm}
        pending={createUser.isPending}
        onSubmit={create}
        areaSuggestions={areas}
      />
      <UserFormDialog
        mode="edit"
        open={editing !== null}
        onOpenChange={(open) => {
          if (!open) setEditing(null);
        }}
        form={editForm}
        pending={updateUser.isPending}
        onSubmit={update}
        areaSuggestions={areas}
      />
      <DeleteUserDialog
        user={deleting}
        pending={deleteUser.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={remove}
      />
    </div>
  );
}

function LoadError({
  error,
  signInHref,
  onRetry,
}: {
  error: Error;
  signInHref: string;
  onRetry: () => void;
}) {
  const status = error instanceof ApiError ? error.status : 0;
  const [title, text] =
    status === 401
      ? ['Please sign in', 'Sign in with a staff account to manage users.']
      : status === 403
        ? ['Staff only', 'User management is only available to staff accounts.']
        : ['Could not load users', 'The list of accounts could not be loaded. Please try again.'];
  return (
    <Card role="alert">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldAlert className="size-5 text-destructive" aria-hidden />
          <h2 className="text-lg">{title}</h2>
        </CardTitle>
        <CardDescription>{text}</CardDescription>
      </CardHeader>
      <CardContent>
        {status === 401 || status === 403 ? (
          <Button asChild variant="outline">
            <a href={signInHref}>Go to staff sign-in</a>
          </Button>
        ) : (
          <Button variant="outline" onClick={onRetry}>
            Try again
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
