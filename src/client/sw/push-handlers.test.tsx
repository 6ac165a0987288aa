import { describe, expect, test } from 'vitest';
import {
  NOTICES,
  type PushLikeEvent,
  type PushWorkerScope,
  readPush,
  registerPushHandlers,
} from './push-handlers';

describe('readPush', () => {
  test('takes an event of ours and a path on this site', () => {
    expect(readPush('{"kind":"offer-new","link":"/offers"}')).toEqual({ kind: 'offer-new', link: '/offers' });
  });
  test('sends links to other sites home, and ignores what is not ours', () => {
    expect(readPush('{"kind":"offer-new","link":"//evil.example/x"}')?.link).toBe('/');
    expect(readPush('{"kind":"offer-new","link":"https://evil.example/"}')?.link).toBe('/');
    expect(readPush('{"kind":"offer-new","link":"/\\\\evil.example"}')?.link).toBe('/');
    expect(readPush('{"kind":"something-else","link":"/"}')).toBeNull();
    expect(readPush('not json')).toBeNull();
    expect(readPush(undefined)).toBeNull();
  });
});

describe('registerPushHandlers', () => {
  test('shows a notice in general words for each push, with its link', async () => {
    const shown: Array<{ title: string; options?: NotificationOptions }> = [];
    const listeners = new Map<string, (event: never) => void>();
    const scope = {
      location: { origin: 'https://portal.example.org' },
      registration: {
        showNotification: async (title: string, options?: NotificationOptions) => {
          shown.push({ title, ...(options ? { options } : {}) });
        },
        pushManager: {} as PushManager,
      },
      clients: { matchAll: async () => [], openWindow: async () => null },
      addEventListener: (type: string, listener: (event: never) => void) => listeners.set(type, listener),
    } as unknown as PushWorkerScope;
    registerPushHandlers(scope);
    const waits: Promise<unknown>[] = [];
    const event: PushLikeEvent = {
      data: { text: () => '{"kind":"booking-moved","link":"/"}' },
      waitUntil: (promise) => waits.push(promise),
    };
    (listeners.get('push') as (event: PushLikeEvent) => void)(event);
    await Promise.all(waits);
    expect(shown).toEqual([
      {
        title: 'Arts Facilitator Portal',
        options: { body: NOTICES['booking-moved'], tag: 'booking-moved', data: { link: '/' } },
      },
    ]);
  });
});
