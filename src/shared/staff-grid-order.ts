/**
 * The staff grid's order, shared because the server names the grid's first rows in the dashboard's
 * HTML (ADR 46) and the client must ask for exactly the same ones to be handed that answer.
 */
export interface GridPerson {
  id: number;
  role: string;
  displayName: string | null;
  username: string;
}

/** The name the grid shows: the display name, or the username when there is none. */
export function gridName(person: Pick<GridPerson, 'displayName' | 'username'>): string {
  return person.displayName?.trim() || person.username;
}

/** Everyone the grid may show: all but staff, by name case-insensitively, then id. */
export function gridOrder<T extends GridPerson>(people: readonly T[]): T[] {
  // each name lowered once, not twice per comparison: 5,000 names take some 60,000 comparisons
  return people
    .filter((person) => person.role !== 'staff')
    .map((person) => ({ person, name: gridName(person).toLowerCase() }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.person.id - b.person.id))
    .map(({ person }) => person);
}

/**
 * How many facilitators' rows the grid asks for before the whole range: more than any screen shows
 * at once (70% of its height in 64 px rows, and the virtualiser's eight rows either side).
 */
export const FIRST_GRID_ROWS = 60;

/** The ids of the grid's first rows as it opens (every area chosen, nobody left out). */
export function firstGridIds(people: readonly GridPerson[], count = FIRST_GRID_ROWS): number[] {
  return gridOrder(people)
    .slice(0, count)
    .map((person) => person.id);
}
