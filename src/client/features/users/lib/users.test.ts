import type { PublicUser } from '@shared/schemas/users';
import { describe, expect, it } from 'vitest';
import { searchUsers, sortUsers } from './users';

const user = (id: number, username: string, displayName: string | null = null) =>
  ({ id, username, displayName }) as PublicUser;

describe('sortUsers', () => {
  it('orders by the shown name whatever its case, then by username, then by id', () => {
    const rows = [
      user(1, 'zed@example.org', 'bea'),
      user(2, 'amy@example.org'),
      user(3, 'b@example.org', 'Bea'),
      user(4, 'a@example.org', 'BEA'),
      user(5, 'a@example.org', 'bea'),
      user(6, 'Carl@example.org', '  '),
    ];
    expect(sortUsers(rows).map((row) => row.id)).toEqual([2, 4, 5, 3, 1, 6]);
  });

  it('leaves the list it was given as it was', () => {
    const rows = [user(2, 'b@example.org'), user(1, 'a@example.org')];
    sortUsers(rows);
    expect(rows.map((row) => row.id)).toEqual([2, 1]);
  });
});

describe('searchUsers', () => {
  it('matches without regard to accents or case, in names and the other fields', () => {
    const rows = [
      user(1, 'nandu@example.org', 'Ñandú Ortega'),
      user(2, 'zoe@example.org', 'Zoë Smith'),
      user(3, 'amy@example.org', 'Amy Pond'),
    ];
    expect(searchUsers(rows, 'nandu').map((row) => row.id)).toEqual([1]);
    expect(searchUsers(rows, 'ÑANDÚ').map((row) => row.id)).toEqual([1]);
    expect(searchUsers(rows, 'zoe sm').map((row) => row.id)).toEqual([2]);
    expect(searchUsers(rows, 'amy@').map((row) => row.id)).toEqual([3]);
    expect(searchUsers(rows, '  ').map((row) => row.id)).toEqual([1, 2, 3]);
  });
});
