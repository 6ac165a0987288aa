import 'fake-indexeddb/auto';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { server } from '@/test/server';
import { clearQueue, queueChange, queuedChanges, sendOrQueue, sendQueued } from './offline-queue';

const day = (date: string, status: string, userId = 7) => ({
  key: `availability:${userId}:${date}`,
  userId,
  method: 'POST' as const,
  url: '/api/availability',
  body: { date, status },
  label: `Your availability for ${date}`,
});

beforeEach(async () => {
  await clearQueue();
});

describe('the queue of changes made offline', () => {
  it('queues a change that gets no answer, and sends nothing twice when a later change of the same day replaces it', async () => {
    server.use(http.post('/api/availability', () => HttpResponse.error()));
    const first = await sendOrQueue(day('2026-12-07', 'available'));
    expect(first.queued).toBe(true);
    await sendOrQueue(day('2026-12-07', 'unavailable'));
    await sendOrQueue(day('2026-12-08', 'limited'));
    const waiting = await queuedChanges();
    expect(waiting.map((change) => [change.key, (change.body as { status: string }).status])).toEqual([
      ['availability:7:2026-12-07', 'unavailable'],
      ['availability:7:2026-12-08', 'limited'],
    ]);

    const sent: unknown[] = [];
    server.use(
      http.post('/api/availability', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ ok: true });
      }),
    );
    const outcomes = await sendQueued(7);
    expect(outcomes.map((outcome) => [outcome.change.key, outcome.result])).toEqual([
      ['availability:7:2026-12-07', 'sent'],
      ['availability:7:2026-12-08', 'sent'],
    ]);
    expect(sent).toEqual([
      { date: '2026-12-07', status: 'unavailable' },
      { date: '2026-12-08', status: 'limited' },
    ]);
    expect(await queuedChanges()).toEqual([]);
    expect(await sendQueued(7)).toEqual([]);
  });

  it('drops a change the server refuses for good, with its reason, and keeps going', async () => {
    await queueChange(day('2026-12-07', 'available'));
    await queueChange(day('2026-12-08', 'available'));
    server.use(
      http.post('/api/availability', async ({ request }) => {
        const body = (await request.json()) as { date: string };
        return body.date === '2026-12-07'
          ? HttpResponse.json({ message: 'This day has a booked session' }, { status: 409 })
          : HttpResponse.json({ ok: true });
      }),
    );
    const outcomes = await sendQueued(7);
    expect(outcomes.map((o) => (o.result === 'refused' ? o.error.serverMessage : o.result))).toEqual([
      'This day has a booked session',
      'sent',
    ]);
    expect(await queuedChanges()).toEqual([]);
  });

  it('stops at a change with no lasting answer (no connection, a 5xx, a session ended) and keeps it and the rest', async () => {
    await queueChange(day('2026-12-07', 'available'));
    await queueChange(day('2026-12-08', 'available'));
    for (const answer of [
      () => HttpResponse.error(),
      () => HttpResponse.json({ message: 'Server error' }, { status: 503 }),
      () => HttpResponse.json({ message: 'Please sign in to continue' }, { status: 401 }),
    ]) {
      server.use(http.post('/api/availability', answer));
      expect(await sendQueued(7)).toEqual([]);
      expect((await queuedChanges()).map((change) => change.key)).toEqual([
        'availability:7:2026-12-07',
        'availability:7:2026-12-08',
      ]);
    }
  });

  it("sends only the signed-in person's changes", async () => {
    await queueChange(day('2026-12-07', 'available', 8));
    expect(await sendQueued(7)).toEqual([]);
    expect((await queuedChanges()).map((change) => change.userId)).toEqual([8]);
  });

  it('one run at a time: a second call while one is sending joins it', async () => {
    await queueChange(day('2026-12-07', 'available'));
    let calls = 0;
    server.use(
      http.post('/api/availability', () => {
        calls += 1;
        return HttpResponse.json({ ok: true });
      }),
    );
    const [a, b] = await Promise.all([sendQueued(7), sendQueued(7)]);
    expect(a).toBe(b);
    expect(calls).toBe(1);
  });

  it('a send for someone else does not join a run on its way: each is told only of their own changes', async () => {
    await queueChange(day('2026-12-07', 'available', 7));
    await queueChange(day('2026-12-08', 'limited', 8));
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.use(
      http.post('/api/availability', async () => {
        await answered;
        return HttpResponse.json({ ok: true });
      }),
    );
    const first = sendQueued(7);
    const second = sendQueued(8);
    answer();
    expect((await first).map((outcome) => outcome.change.key)).toEqual(['availability:7:2026-12-07']);
    expect((await second).map((outcome) => outcome.change.key)).toEqual(['availability:8:2026-12-08']);
    expect(await queuedChanges()).toEqual([]);
  });
});
