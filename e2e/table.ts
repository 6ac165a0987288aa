import type { Locator, Page } from '@playwright/test';

/**
 * The cell of `row` under the column headed `heading`. Found by the heading rather than a fixed
 * position, because tables gain columns as features arrive (the users table's Safeguarding column).
 */
export async function cellUnder(page: Page, row: Locator, heading: string): Promise<Locator> {
  const headings = page.getByRole('columnheader');
  await headings.filter({ hasText: heading }).first().waitFor();
  const texts = (await headings.allTextContents()).map((text) => text.trim());
  const index = texts.indexOf(heading);
  if (index < 0) throw new Error(`no column headed "${heading}" (headings: ${texts.join(', ')})`);
  return row.getByRole('cell').nth(index);
}

/**
 * Chooses one of an account's actions on the users page: its row's Actions menu, then the action by
 * name ("History", "Edit", "Delete" …). Answers the menu's button, which focus goes back to once the
 * dialog the action opened closes.
 */
export async function userAction(page: Page, row: Locator, name: string, action: string): Promise<Locator> {
  const button = row.getByRole('button', { name: `Actions for ${name}` });
  await button.click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
  return button;
}
