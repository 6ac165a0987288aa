import { act, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, expect, test, vi } from 'vitest';
import { catchInstallPrompt, type InstallPromptEvent } from '@/lib/install-prompt';
import { renderWithApp } from '@/test/render';
import { InstallHint } from './install-hint';

afterEach(() => {
  vi.restoreAllMocks();
});

/** A phone held upright, in a browser tab (not the installed app). */
function onAPhone() {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: query.includes('max-width'),
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      }) as unknown as MediaQueryList,
  );
}

/** Pages drawn one after another, each with its own hint (as each page draws its own layout). */
function Pages() {
  const [page, setPage] = useState(0);
  return (
    <>
      <button type="button" onClick={() => setPage((n) => n + 1)}>
        Open the next page
      </button>
      <InstallHint key={page} />
    </>
  );
}

test("the browser's install offer, made before the hint was drawn, is kept from page to page until used", async () => {
  localStorage.removeItem('afp-install-hint-dismissed');
  onAPhone();
  catchInstallPrompt();
  let choose = (_: { outcome: 'accepted' | 'dismissed' }) => {};
  const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
    prompt: vi.fn(async () => {}),
    userChoice: new Promise<{ outcome: 'accepted' | 'dismissed' }>((resolve) => {
      choose = resolve;
    }),
  }) as InstallPromptEvent;
  // the offer comes as the app starts, before any page that shows the hint
  act(() => {
    window.dispatchEvent(offer);
  });
  expect(offer.defaultPrevented).toBe(true);

  const { user } = renderWithApp(<Pages />);
  expect(screen.getByRole('button', { name: 'Install' })).toBeVisible();
  await user.click(screen.getByRole('button', { name: 'Open the next page' }));
  await user.click(screen.getByRole('button', { name: 'Install' }));
  expect(offer.prompt).toHaveBeenCalledTimes(1);

  // an offer is used once: once the person has chosen, the hint goes
  choose({ outcome: 'dismissed' });
  await waitFor(() => expect(screen.queryByRole('complementary', { name: 'Install the portal' })).toBeNull());
});
