import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { THEME_STORAGE_KEY } from '@/lib/theme';
import { renderWithApp } from '@/test/render';
import { ThemeToggle } from './theme-toggle';

/**
 * The operating system's colour preference as the browser reports it: `prefersDark` says what it is
 * now, and changing it tells the page as the browser does (a `change` event on the media query).
 */
function systemPreference(prefersDark: boolean) {
  const query = new EventTarget() as MediaQueryList;
  Object.defineProperty(query, 'matches', { get: () => prefersDark });
  const before = window.matchMedia;
  window.matchMedia = () => query;
  return {
    set(dark: boolean) {
      prefersDark = dark;
      query.dispatchEvent(new Event('change'));
    },
    restore: () => {
      window.matchMedia = before;
    },
  };
}

const html = () => document.documentElement;

async function choose(user: ReturnType<typeof renderWithApp>['user'], label: 'Light' | 'Dark' | 'System') {
  await user.click(screen.getByRole('button', { name: 'Change theme' }));
  await user.click(await screen.findByRole('menuitemradio', { name: label }));
}

let preference: ReturnType<typeof systemPreference> | undefined;
afterEach(() => {
  preference?.restore();
  preference = undefined;
  html().className = '';
});

describe('the theme', () => {
  test('defaults to light, whatever the system prefers, and stores nothing until chosen', () => {
    preference = systemPreference(true);
    renderWithApp(<ThemeToggle />);
    expect(html()).toHaveClass('light');
    expect(html()).not.toHaveClass('dark');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
  });

  test('a chosen theme is shown at once and stored under vite-ui-theme', async () => {
    const { user } = renderWithApp(<ThemeToggle />);
    await choose(user, 'Dark');
    expect(html()).toHaveClass('dark');
    expect(html()).not.toHaveClass('light');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    await choose(user, 'Light');
    expect(html()).toHaveClass('light');
    expect(html()).not.toHaveClass('dark');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
  });

  test('a stored choice is what the next page view shows, whatever the system prefers', async () => {
    preference = systemPreference(false);
    const first = renderWithApp(<ThemeToggle />);
    await choose(first.user, 'Dark');
    first.unmount();
    html().className = '';
    // a new page view: the provider reads the stored choice
    const second = renderWithApp(<ThemeToggle />);
    expect(html()).toHaveClass('dark');
    expect(html()).not.toHaveClass('light');

    act(() => preference?.set(true));
    await choose(second.user, 'Light');
    second.unmount();
    html().className = '';
    renderWithApp(<ThemeToggle />);
    expect(html()).toHaveClass('light');
    expect(html()).not.toHaveClass('dark');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
  });

  test('System follows the operating system preference live, and again after a reload', async () => {
    preference = systemPreference(false);
    const { user, unmount } = renderWithApp(<ThemeToggle />);
    await choose(user, 'System');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('system');
    expect(html()).toHaveClass('light');
    act(() => preference?.set(true));
    expect(html()).toHaveClass('dark');

    // a new page view reads the stored choice and the preference as it is now
    unmount();
    renderWithApp(<ThemeToggle />);
    expect(html()).toHaveClass('dark');
    act(() => preference?.set(false));
    expect(html()).toHaveClass('light');
  });
});
