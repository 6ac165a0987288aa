import { act, fireEvent, render, screen } from '@testing-library/react';
import { type ComponentType, Suspense, useState } from 'react';
import { describe, expect, test } from 'vitest';
import { lazyPage } from './lazy-page';

/** A page with state of its own, which a remount would lose. */
function CountingPage() {
  const [count, setCount] = useState(0);
  return (
    <button type="button" onClick={() => setCount((n) => n + 1)}>
      Clicked {count}
    </button>
  );
}

/** A page module that arrives when the test says so. */
function pageArrivingLater() {
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  const Page = lazyPage(async () => {
    await arrived;
    return { default: CountingPage };
  });
  return { Page, arrive };
}

/** Stands for the route guard: it draws the page again whenever the session's answer changes. */
function Guard({ page: Page }: { page: ComponentType }) {
  const [, setRenders] = useState(0);
  return (
    <>
      <button type="button" onClick={() => setRenders((n) => n + 1)}>
        Draw again
      </button>
      <Suspense fallback={<p>Loading the page</p>}>
        <Page />
      </Suspense>
    </>
  );
}

describe('lazyPage', () => {
  test('a page first drawn before its code arrived keeps its state when drawn again', async () => {
    const { Page, arrive } = pageArrivingLater();
    render(<Guard page={Page} />);
    expect(screen.getByText('Loading the page')).toBeVisible();
    await act(async () => arrive());
    fireEvent.click(await screen.findByRole('button', { name: 'Clicked 0' }));
    expect(screen.getByRole('button', { name: 'Clicked 1' })).toBeVisible();

    // the session read again (a focus, the connection back) draws the guard and its page again
    fireEvent.click(screen.getByRole('button', { name: 'Draw again' }));
    expect(screen.getByRole('button', { name: 'Clicked 1' })).toBeVisible();
  });

  test('once its code is in, the page draws at once, without the loading fallback', async () => {
    const { Page, arrive } = pageArrivingLater();
    arrive();
    await Page.preload();
    render(<Guard page={Page} />);
    expect(screen.getByRole('button', { name: 'Clicked 0' })).toBeVisible();
    expect(screen.queryByText('Loading the page')).toBeNull();
  });
});
