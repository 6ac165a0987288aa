import { type PublicUser, STALE_ACCOUNT_MESSAGE, type UsersPage } from '@shared/schemas/users';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { UserManagement } from './user-management';

const ann: PublicUser = {
  id: 3,
  username: 'ann@example.org',
  displayName: 'Ann Artist',
  email: null,
  freelancerId: null,
  role: 'facilitator',
  area: null,
  lastAvailabilityUpdatedAt: null,
  version: 4,
  deactivatedAt: null,
  anonymisedAt: null,
};

/** One page of accounts as the server answers it: the last one unless `nextCursor` says otherwise. */
const page = (rows: PublicUser[], more: Partial<UsersPage> = {}): UsersPage => ({
  rows,
  nextCursor: null,
  matching: rows.length,
  total: rows.length,
  areas: [],
  ...more,
});

/** The users list, and the create and edit endpoints answering as `answer` says; returns the bodies sent. */
function usersApi(answer: () => Response | Promise<Response>) {
  const bodies: unknown[] = [];
  const record = async ({ request }: { request: Request }) => {
    bodies.push(await request.json());
    return answer();
  };
  server.use(
    http.get('/api/staff/users', () => HttpResponse.json(page([ann]))),
    // Microsoft sign-in off: no invitation column
    http.get('/api/auth/microsoft', () =>
      HttpResponse.json({ enabled: false, staffPasswordSignIn: true, facilitatorSignIn: false }),
    ),
    // Ann has her own password and was never invited: no sign-in line under her name
    http.get('/api/staff/password-invitations', () =>
      HttpResponse.json([
        { userId: ann.id, hasPassword: true, invitedAt: null, expiresAt: null, joinedAt: null },
      ]),
    ),
    http.post('/api/staff/users', record),
    http.put('/api/staff/users/:id', record),
  );
  return bodies;
}

/** A request answered only once `release` is called, so what the page shows meanwhile can be read. */
function held() {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { released, release };
}

/** The toast that says `description`, once it shows (its title is in the same element). */
async function toastSaying(description: string) {
  return (await screen.findByText(description)).closest('li')!;
}

const renderUsers = () => renderWithApp(<UserManagement currentUserId={1} signInHref="/staff-login" />);

describe('UserManagement: the account dialogs', () => {
  test("create shows the rules' messages and sends nothing until they hold", async () => {
    const bodies = usersApi(() => HttpResponse.json(ann, { status: 201 }));
    const { user } = renderUsers();
    await user.click(await screen.findByRole('button', { name: 'Add Facilitator' }));
    const dialog = screen.getByRole('dialog', { name: 'Create New Facilitator' });
    const submit = within(dialog).getByRole('button', { name: 'Create Facilitator' });
    expect(submit).toBeDisabled();

    await user.type(within(dialog).getByLabelText('Username (Email)'), 'new@example.org');
    await user.type(within(dialog).getByLabelText('Password', { exact: true }), '123');
    await user.type(within(dialog).getByLabelText('Area'), 'x'.repeat(101));
    await user.click(submit);
    expect(within(dialog).getByText('Password must be at least 6 characters')).toBeVisible();
    expect(within(dialog).getByText('Must be at most 100 characters')).toBeVisible();
    expect(within(dialog).getByLabelText('Password', { exact: true })).toHaveFocus();
    expect(within(dialog).getByLabelText('Password', { exact: true })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(bodies).toEqual([]);

    await user.type(within(dialog).getByLabelText('Password', { exact: true }), '456');
    await user.clear(within(dialog).getByLabelText('Area'));
    await user.click(submit);
    expect(await screen.findByText('New facilitator has been added successfully')).toBeVisible();
    expect(bodies).toEqual([
      {
        username: 'new@example.org',
        password: '123456',
        displayName: '',
        email: '',
        freelancerId: '',
        area: '',
        role: 'facilitator',
      },
    ]);
    // the next account starts from an empty form
    await user.click(screen.getByRole('button', { name: 'Add Facilitator' }));
    expect(
      within(screen.getByRole('dialog', { name: 'Create New Facilitator' })).getByLabelText(
        'Username (Email)',
      ),
    ).toHaveValue('');
  });

  test('create with an invitation: no password, the email required, and the invitation asked for', async () => {
    const bodies = usersApi(() => HttpResponse.json({ ...ann, invitationEmailError: null }, { status: 201 }));
    const { user } = renderUsers();
    await user.click(await screen.findByRole('button', { name: 'Add Facilitator' }));
    const dialog = screen.getByRole('dialog', { name: 'Create New Facilitator' });
    await user.click(within(dialog).getByRole('checkbox', { name: /Send an invitation instead/ }));
    expect(within(dialog).queryByLabelText('Password', { exact: true })).toBeNull();
    await user.type(within(dialog).getByLabelText('Username (Email)'), 'new@example.org');
    await user.click(within(dialog).getByRole('button', { name: 'Create Facilitator' }));
    expect(within(dialog).getByText('Enter an email address: the invitation goes there')).toBeVisible();
    expect(bodies).toEqual([]);

    await user.type(within(dialog).getByLabelText(/^Email/), 'new@example.org');
    await user.click(within(dialog).getByRole('button', { name: 'Create Facilitator' }));
    expect(
      await screen.findByText('New facilitator has been added and invited by email to new@example.org'),
    ).toBeVisible();
    expect(bodies).toEqual([
      {
        username: 'new@example.org',
        sendInvitation: true,
        displayName: '',
        email: 'new@example.org',
        freelancerId: '',
        area: '',
        role: 'facilitator',
      },
    ]);
  });

  test('create waits for a username and a password, says "Creating..." while it is sent, then closes and starts empty', async () => {
    const request = held();
    const bodies = usersApi(async () => {
      await request.released;
      return HttpResponse.json(ann, { status: 201 });
    });
    const { user } = renderUsers();
    await user.click(await screen.findByRole('button', { name: 'Add Facilitator' }));
    const dialog = screen.getByRole('dialog', { name: 'Create New Facilitator' });
    expect(within(dialog).getByText('SharePoint freelancer ID')).toBeVisible();
    const submit = within(dialog).getByRole('button', { name: 'Create Facilitator' });
    const username = within(dialog).getByLabelText('Username (Email)');
    const password = within(dialog).getByLabelText('Password', { exact: true });

    expect(submit).toBeDisabled();
    await user.type(username, 'zoe@example.org');
    expect(submit).toBeDisabled();
    await user.type(password, 'created-pass-1');
    expect(submit).toBeEnabled();
    await user.clear(username);
    expect(submit).toBeDisabled();
    await user.type(username, 'zoe@example.org');
    await user.type(within(dialog).getByLabelText('Display Name'), 'Zoe Created');
    await user.type(within(dialog).getByLabelText('Email', { exact: true }), 'zoe@example.org');
    await user.type(within(dialog).getByLabelText('Freelancer ID'), 'FL-900');
    await user.type(within(dialog).getByLabelText('Area'), 'North Coast');

    await user.click(submit);
    expect(await within(dialog).findByRole('button', { name: 'Creating...' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    request.release();
    expect(await toastSaying('New facilitator has been added successfully')).toHaveTextContent(
      'User created',
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodies).toEqual([
      {
        username: 'zoe@example.org',
        password: 'created-pass-1',
        displayName: 'Zoe Created',
        email: 'zoe@example.org',
        freelancerId: 'FL-900',
        area: 'North Coast',
        role: 'facilitator',
      },
    ]);

    await user.click(screen.getByRole('button', { name: 'Add Facilitator' }));
    const again = screen.getByRole('dialog', { name: 'Create New Facilitator' });
    for (const label of ['Username (Email)', 'Display Name', 'Freelancer ID', 'Area']) {
      expect(within(again).getByLabelText(label)).toHaveValue('');
    }
    expect(within(again).getByLabelText('Password', { exact: true })).toHaveValue('');
    expect(within(again).getByLabelText('Email', { exact: true })).toHaveValue('');
    await user.click(within(again).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  test("a refused save keeps the dialog and what was typed, and toasts the server's message", async () => {
    usersApi(() =>
      HttpResponse.json({ message: 'The username "ann@example.org" is already taken' }, { status: 409 }),
    );
    const { user } = renderUsers();
    await user.click(await screen.findByRole('button', { name: 'Add Facilitator' }));
    const dialog = screen.getByRole('dialog', { name: 'Create New Facilitator' });
    await user.type(within(dialog).getByLabelText('Username (Email)'), 'ANN@example.org');
    await user.type(within(dialog).getByLabelText('Password', { exact: true }), 'whatever-1');
    await user.click(within(dialog).getByRole('button', { name: 'Create Facilitator' }));
    expect(await screen.findByText('The username "ann@example.org" is already taken')).toBeVisible();
    expect(screen.getByText('Error')).toBeVisible();
    expect(dialog).toBeVisible();
    expect(within(dialog).getByLabelText('Username (Email)')).toHaveValue('ANN@example.org');
  });

  test('edit: a blank password keeps the current one, a short one is refused, only changes are sent', async () => {
    const bodies = usersApi(() => HttpResponse.json({ ...ann, displayName: 'Ann Renamed', version: 5 }));
    const { user } = renderUsers();
    await user.click(await screen.findByRole('button', { name: /Actions/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Facilitator' });
    const password = within(dialog).getByLabelText('Password (leave blank to keep current)');
    await user.type(password, 'abc');
    await user.click(within(dialog).getByRole('button', { name: 'Update Facilitator' }));
    expect(within(dialog).getByText('Password must be at least 6 characters')).toBeVisible();
    expect(bodies).toEqual([]);

    await user.clear(password);
    await user.clear(within(dialog).getByLabelText('Display Name'));
    await user.type(within(dialog).getByLabelText('Display Name'), 'Ann Renamed');
    await user.click(within(dialog).getByRole('button', { name: 'Update Facilitator' }));
    expect(await screen.findByText('Facilitator information has been updated successfully')).toBeVisible();
    expect(bodies).toEqual([{ version: 4, displayName: 'Ann Renamed' }]);
  });

  test('edit opens filled from the account, needs only the username, says "Updating..." while it is sent, then shows the saved account', async () => {
    const cora: PublicUser = {
      ...ann,
      id: 5,
      username: 'cora@example.org',
      displayName: 'Cora Coordinator',
      email: null,
      freelancerId: '55',
      role: 'coordinator',
    };
    let listed = cora;
    const request = held();
    const bodies = usersApi(async () => {
      await request.released;
      listed = { ...cora, displayName: 'Cora Renamed', email: 'cora@example.org', version: 5 };
      return HttpResponse.json(listed);
    });
    server.use(http.get('/api/staff/users', () => HttpResponse.json(page([listed]))));
    const { user } = renderUsers();
    const row = await screen.findByTestId('user-row-5');
    // a role other than staff and facilitator has a look of its own
    expect(within(row).getByText('coordinator')).toHaveAttribute('data-role-look', 'other');
    await user.click(within(row).getByRole('button', { name: 'Actions for Cora Coordinator' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Facilitator' });
    const username = within(dialog).getByLabelText('Username (Email)');
    expect(username).toHaveValue('cora@example.org');
    expect(within(dialog).getByLabelText('Password (leave blank to keep current)')).toHaveValue('');
    expect(within(dialog).getByLabelText('Display Name')).toHaveValue('Cora Coordinator');
    expect(within(dialog).getByLabelText('Email', { exact: true })).toHaveValue('');
    expect(within(dialog).getByLabelText('Freelancer ID')).toHaveValue('55');
    const submit = within(dialog).getByRole('button', { name: 'Update Facilitator' });
    expect(submit).toBeEnabled();

    await user.clear(username);
    expect(submit).toBeDisabled();
    await user.type(username, 'cora@example.org');
    expect(submit).toBeEnabled();
    await user.clear(within(dialog).getByLabelText('Display Name'));
    await user.type(within(dialog).getByLabelText('Display Name'), 'Cora Renamed');
    await user.type(within(dialog).getByLabelText('Email', { exact: true }), 'cora@example.org');
    await user.click(submit);
    expect(await within(dialog).findByRole('button', { name: 'Updating...' })).toBeDisabled();
    request.release();
    expect(await toastSaying('Facilitator information has been updated successfully')).toHaveTextContent(
      'User updated',
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // the unchanged username, the empty password and the role are left out
    expect(bodies).toEqual([{ version: 4, displayName: 'Cora Renamed', email: 'cora@example.org' }]);
    // the list is read again
    await waitFor(() => expect(within(row).getByTestId('user-name')).toHaveTextContent('Cora Renamed'));
    expect(within(row).getByText('coordinator')).toBeVisible();

    await user.click(within(row).getByRole('button', { name: 'Actions for Cora Renamed' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const reopened = screen.getByRole('dialog', { name: 'Edit Facilitator' });
    expect(within(reopened).getByLabelText('Email', { exact: true })).toHaveValue('cora@example.org');
    await user.click(within(reopened).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  test('an edit of an account changed meanwhile is refused: the dialog stays, and the table shows the account as it is now', async () => {
    let listed = ann;
    usersApi(() => {
      listed = { ...ann, role: 'staff', version: 5 };
      return HttpResponse.json({ message: STALE_ACCOUNT_MESSAGE }, { status: 409 });
    });
    server.use(http.get('/api/staff/users', () => HttpResponse.json(page([listed]))));
    const { user } = renderUsers();
    const row = await screen.findByTestId('user-row-3');
    expect(within(row).getByText('facilitator')).toHaveAttribute('data-role-look', 'facilitator');
    await user.click(within(row).getByRole('button', { name: 'Actions for Ann Artist' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Facilitator' });
    await user.type(within(dialog).getByLabelText('Email', { exact: true }), 'ann-new@example.org');
    await user.click(within(dialog).getByRole('button', { name: 'Update Facilitator' }));
    expect(await toastSaying(STALE_ACCOUNT_MESSAGE)).toHaveTextContent('Error');
    expect(dialog).toBeVisible();
    expect(within(dialog).getByLabelText('Email', { exact: true })).toHaveValue('ann-new@example.org');
    // read again after the refusal: the promotion made meanwhile shows behind the dialog
    await waitFor(() => expect(row.querySelector('[data-role-look]')).toHaveTextContent('staff'));
    expect(row.querySelector('[data-role-look]')).toHaveAttribute('data-role-look', 'staff');
  });

  test("a refused edit keeps the dialog open and toasts the server's message", async () => {
    usersApi(() =>
      HttpResponse.json({ message: 'The username "ben@example.org" is already taken' }, { status: 409 }),
    );
    const { user } = renderUsers();
    await user.click(await screen.findByRole('button', { name: /Actions/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Facilitator' });
    await user.clear(within(dialog).getByLabelText('Username (Email)'));
    await user.type(within(dialog).getByLabelText('Username (Email)'), 'ben@example.org');
    await user.click(within(dialog).getByRole('button', { name: 'Update Facilitator' }));
    expect(await screen.findByText('The username "ben@example.org" is already taken')).toBeVisible();
    expect(screen.getByText('Error')).toBeVisible();
    expect(dialog).toBeVisible();
  });
});

describe('UserManagement: deleting', () => {
  test('delete asks first and Cancel keeps the account; "Deleting..." while it is sent, then the row and the count go', async () => {
    const ben: PublicUser = { ...ann, id: 4, username: 'ben@example.org', displayName: 'Ben Baker' };
    let listed = [ann, ben];
    let deletes = 0;
    const request = held();
    usersApi(() => HttpResponse.json(ann));
    server.use(
      http.get('/api/staff/users', () => HttpResponse.json(page(listed))),
      http.delete('/api/staff/users/:id', async ({ params }) => {
        deletes += 1;
        await request.released;
        listed = listed.filter((person) => person.id !== Number(params.id));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user } = renderUsers();
    expect(await screen.findByRole('heading', { name: 'Facilitators (2)' })).toBeVisible();
    await user.click(await screen.findByRole('button', { name: 'Actions for Ann Artist' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent(
      'Are you sure you want to delete Ann Artist? This action cannot be undone.',
    );
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByTestId('user-row-3')).toBeVisible();
    expect(deletes).toBe(0);

    await user.click(screen.getByRole('button', { name: 'Actions for Ann Artist' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const again = await screen.findByRole('alertdialog');
    await user.click(within(again).getByRole('button', { name: 'Delete' }));
    expect(await within(again).findByRole('button', { name: 'Deleting...' })).toBeDisabled();
    request.release();
    expect(await toastSaying('Facilitator has been removed successfully')).toHaveTextContent('User deleted');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(await screen.findByRole('heading', { name: 'Facilitators (1)' })).toBeVisible();
    // the table draws what arrived in a render of its own
    await waitFor(() =>
      expect(screen.getAllByTestId('user-name').map((name) => name.textContent)).toEqual(['Ben Baker']),
    );
    expect(deletes).toBe(1);
  });

  test('a refused delete (the account already gone) toasts "Error" with the server\'s message', async () => {
    usersApi(() => HttpResponse.json(ann));
    let deletes = 0;
    server.use(
      http.delete('/api/staff/users/:id', () => {
        deletes += 1;
        return HttpResponse.json({ message: 'User not found' }, { status: 404 });
      }),
    );
    const { user } = renderUsers();
    await user.click(await screen.findByRole('button', { name: /Actions/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('User not found')).toBeVisible();
    expect(screen.getByText('Error')).toBeVisible();
    expect(deletes).toBe(1);
  });
});

describe('UserManagement: leavers', () => {
  test('deactivates from the Actions menu, then shows the state and offers reactivation', async () => {
    let current: PublicUser = ann;
    const calls: string[] = [];
    usersApi(() => HttpResponse.json(ann));
    server.use(
      http.get('/api/staff/users', () => HttpResponse.json(page([current]))),
      http.post('/api/staff/users/:id/deactivate', ({ params }) => {
        calls.push(`deactivate ${params.id}`);
        current = { ...ann, deactivatedAt: '2026-12-02T10:00:00.000Z', version: 5 };
        return HttpResponse.json(current);
      }),
    );
    const { user } = renderUsers();
    await user.click(await screen.findByRole('button', { name: 'Actions for Ann Artist' }));
    await user.click(screen.getByRole('menuitem', { name: 'Deactivate (a leaver)' }));
    expect(await screen.findByText('Account deactivated')).toBeVisible();
    expect(calls).toEqual(['deactivate 3']);
    expect(await screen.findByTestId('user-state')).toHaveTextContent('Deactivated');
    await user.click(screen.getByRole('button', { name: 'Actions for Ann Artist' }));
    expect(screen.getByRole('menuitem', { name: 'Reactivate' })).toBeVisible();
  });
});

const person = (id: number, name: string): PublicUser => ({
  ...ann,
  id,
  username: `${name.toLowerCase().replace(/\W/g, '.')}@example.org`,
  displayName: name,
});

/** The addresses the accounts were read at, and the pages answered by cursor (absent: the first). */
function pagedUsersApi(answer: (url: URL) => UsersPage) {
  const reads: URL[] = [];
  usersApi(() => HttpResponse.json(ann));
  server.use(
    http.get('/api/staff/users', ({ request }) => {
      const url = new URL(request.url);
      reads.push(url);
      return HttpResponse.json(answer(url));
    }),
  );
  return reads;
}

describe('UserManagement: the accounts a page at a time', () => {
  test('reads the next page as the last rows read are drawn, and shows everyone once', async () => {
    const first = [1, 2, 3].map((id) => person(id, `Person ${id}`));
    const second = [4, 5].map((id) => person(id, `Person ${id}`));
    const reads = pagedUsersApi((url) =>
      url.searchParams.get('cursor') === 'after-3'
        ? page(second, { matching: 5, total: 5 })
        : page(first, { nextCursor: 'after-3', matching: 5, total: 5 }),
    );
    renderUsers();
    expect(await screen.findByRole('heading', { name: 'Facilitators (5)' })).toBeVisible();
    expect(await screen.findByText('Person 5')).toBeVisible();
    expect(screen.getAllByTestId('user-name').map((name) => name.textContent)).toEqual(
      [1, 2, 3, 4, 5].map((id) => `Person ${id}`),
    );
    expect(reads.map((url) => url.searchParams.get('cursor'))).toEqual([null, 'after-3']);
    expect(reads[0]!.searchParams.get('limit')).toBe('100');
  });

  test('a long list reads its first page only, until its last rows come into view', async () => {
    const rows = Array.from({ length: 100 }, (_, i) =>
      person(i + 1, `Person ${String(i + 1).padStart(3, '0')}`),
    );
    const reads = pagedUsersApi(() => page(rows, { nextCursor: 'after-100', matching: 250, total: 250 }));
    renderUsers();
    expect(await screen.findByRole('heading', { name: 'Facilitators (250)' })).toBeVisible();
    // the table counts every row, read or not, for assistive technology
    expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', '251');
    expect(reads).toHaveLength(1);
  });

  test('the search is sent to the server once typing pauses, and its counts are shown', async () => {
    const bea = person(4, 'Béa Potter');
    const reads = pagedUsersApi((url) =>
      url.searchParams.get('search') === 'bea'
        ? page([bea], { matching: 1, total: 2 })
        : page([ann, bea], { matching: 2, total: 2 }),
    );
    const { user } = renderUsers();
    await user.type(await screen.findByRole('searchbox', { name: 'Search facilitators' }), '  bea');
    expect(await screen.findByText('1 of 2 shown')).toBeVisible();
    // the table draws what arrived in a render of its own
    await waitFor(() =>
      expect(screen.getAllByTestId('user-name').map((name) => name.textContent)).toEqual(['Béa Potter']),
    );
    // typing is read once it pauses, trimmed, not at every key
    expect(reads.map((url) => url.searchParams.get('search'))).toEqual([null, 'bea']);
  });

  test('the safeguarding filter is applied by the server', async () => {
    const reads = pagedUsersApi((url) =>
      url.searchParams.get('safeguarding') === 'missing' ? page([], { total: 1 }) : page([ann]),
    );
    const { user } = renderWithApp(
      <UserManagement
        currentUserId={1}
        signInHref="/staff-login"
        safeguarding={new Map([[ann.id, { state: 'valid', reasons: [] }]])}
      />,
    );
    await user.selectOptions(await screen.findByLabelText('Safeguarding'), 'missing');
    expect(await screen.findByText('No accounts match the search.')).toBeVisible();
    expect(screen.getByText('0 of 1 shown')).toBeVisible();
    expect(reads.map((url) => url.searchParams.get('safeguarding'))).toEqual([null, 'missing']);
  });
});
