import { formatTime12 } from '@shared/calendar';
import type { MyOffer } from '@shared/schemas/offers';
import type { PublicUser } from '@shared/schemas/users';
import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { CloudOff, RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { currentUserQueryKey } from '@/features/auth/api/auth-api';
import { useAuth } from '@/features/auth/auth-provider';
import { offerClosedReason, offersKeys } from '@/features/offers';
import { apiJson } from '@/lib/api';
import { type ChangeOutcome, onQueueChanged, queuedChanges, sendQueued } from '@/lib/offline-queue';
import { useSavedCopyTime } from '@/lib/offline-state';
import { usePortalUpdated } from '@/lib/service-worker';
import { InstallHint } from './install-hint';

/**
 * The device's own news, above every page: a new version of the portal that needs a reload, the
 * saved copies shown while offline, the changes waiting on the device, and what became of them once
 * sent. It also sends the waiting changes: when the page opens and whenever the connection is back.
 */
export function DeviceStatus() {
  const updated = usePortalUpdated();
  const savedAt = useSavedCopyTime();
  const { user } = useAuth();
  const waiting = useWaitingChanges(user?.id ?? null);
  useSendWaitingChanges(user?.id ?? null);
  const outcomes = useSentOutcomes(user?.id ?? null);
  return (
    <div className="empty:hidden">
      {updated ? (
        <div
          role="alert"
          className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b bg-muted px-4 py-2 text-sm"
        >
          <p className="font-medium">The portal has been updated. Reload the page to continue.</p>
          <Button size="sm" onClick={() => window.location.reload()}>
            <RefreshCw aria-hidden />
            Reload the page
          </Button>
        </div>
      ) : null}
      {savedAt || waiting > 0 ? (
        <div
          role="status"
          className="flex flex-wrap items-center gap-x-4 gap-y-1 border-b bg-muted px-4 py-2 text-sm"
        >
          {savedAt ? (
            <p className="flex items-center gap-2 font-medium">
              <CloudOff className="size-4" aria-hidden />
              Offline — showing what was saved at {formatTime12(timeOfDay(savedAt))}
            </p>
          ) : null}
          {waiting > 0 ? (
            <p>
              {waiting === 1 ? '1 change' : `${waiting} changes`} waiting to be sent when you are back online.
            </p>
          ) : null}
        </div>
      ) : null}
      {outcomes.list.length > 0 ? (
        <section
          aria-labelledby="sent-changes-heading"
          className="grid gap-2 border-b bg-muted px-4 py-2 text-sm"
        >
          <h2 id="sent-changes-heading" className="font-medium">
            Changes made offline
          </h2>
          <ul className="grid gap-1">
            {outcomes.list.map((outcome) => (
              <li
                key={`${outcome.key}-${outcome.seq}`}
                className={outcome.ok ? '' : 'font-medium text-destructive'}
              >
                {outcome.text}
              </li>
            ))}
          </ul>
          <Button size="sm" variant="outline" className="justify-self-start" onClick={outcomes.dismiss}>
            Dismiss
          </Button>
        </section>
      ) : null}
      <InstallHint />
    </div>
  );
}

const timeOfDay = (time: Date) =>
  `${String(time.getHours()).padStart(2, '0')}:${String(time.getMinutes()).padStart(2, '0')}`;

/** How many of this person's changes wait on the device. */
function useWaitingChanges(userId: number | null): number {
  const [count, setCount] = useState(0);
  useEffect(() => {
    if (userId === null) {
      setCount(0);
      return;
    }
    let current = true;
    const read = () =>
      void queuedChanges().then(
        (changes) => current && setCount(changes.filter((change) => change.userId === userId).length),
        () => undefined,
      );
    read();
    const stop = onQueueChanged(read);
    return () => {
      current = false;
      stop();
    };
  }, [userId]);
  return count;
}

/** How often waiting changes are tried again, whatever the browser says of the connection. */
const RETRY_MS = 20_000;

interface ShownOutcome {
  key: string;
  seq: number;
  ok: boolean;
  text: string;
}

/**
 * What became of a person's sent changes lives in the app's query cache, not in this component: each
 * page draws its own layout, and a page change while a change is on its way must not lose what
 * became of it, nor clear it from the screen. Nothing fetches it; sign-out clears it with the rest of
 * the person's cache.
 */
const sentOutcomesKey = (userId: number | null) => ['device', 'sent-changes', userId] as const;

function useSentOutcomes(userId: number | null) {
  const queryClient = useQueryClient();
  const { data } = useQuery<ShownOutcome[]>({ queryKey: sentOutcomesKey(userId), queryFn: skipToken });
  return {
    list: data ?? [],
    dismiss: () => queryClient.setQueryData<ShownOutcome[]>(sentOutcomesKey(userId), []),
  };
}

/** Sends the waiting changes at start and when the connection returns; reads everything again after. */
function useSendWaitingChanges(userId: number | null) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (userId === null) return;
    // The send outlives this component (a page change), not the person's session: what became of
    // their changes is for them, not for whoever signs in next on the device.
    const stillSignedIn = () =>
      queryClient.getQueryData<PublicUser | null>(currentUserQueryKey)?.id === userId;
    const send = async () => {
      const outcomes = await sendQueued(userId).catch(() => [] as ChangeOutcome[]);
      if (outcomes.length === 0 || !stillSignedIn()) return;
      const offers = outcomes.some((o) => o.result === 'refused' && o.change.key.startsWith('offer:'))
        ? await queryClient
            .fetchQuery({
              queryKey: offersKeys.mine,
              queryFn: () => apiJson<MyOffer[]>('GET', '/api/offers'),
              staleTime: 0,
            })
            .catch(() => [] as MyOffer[])
        : [];
      const words = outcomes.map((outcome) => outcomeInWords(outcome, offers));
      // Two sends at once (the browser's "online" as the retry fires) share one run and both get its
      // outcomes: each is shown once.
      const isNew = (list: ShownOutcome[], o: ShownOutcome) =>
        !list.some((seen) => seen.key === o.key && seen.seq === o.seq);
      if (!stillSignedIn()) return;
      queryClient.setQueryData<ShownOutcome[]>(sentOutcomesKey(userId), (before = []) => [
        ...before,
        ...words.filter((o) => isNew(before, o)),
      ]);
      await queryClient.invalidateQueries();
    };
    const back = () => {
      // what is on screen came from the kept copies: read it again, then send what waits
      void queryClient.invalidateQueries();
      void send();
    };
    if (navigator.onLine !== false) void send();
    window.addEventListener('online', back);
    // The browser's "online" is only a hint (one bar of signal is "online" and fails every request):
    // while changes wait, they are also tried again every so often.
    const retry = window.setInterval(() => {
      void queuedChanges().then((changes) => {
        if (changes.some((change) => change.userId === userId)) back();
      });
    }, RETRY_MS);
    return () => {
      window.removeEventListener('online', back);
      window.clearInterval(retry);
    };
  }, [userId, queryClient]);
}

/** One sent change in words: sent, or refused and why. */
function outcomeInWords(outcome: ChangeOutcome, offers: MyOffer[]): ShownOutcome {
  const { change } = outcome;
  const base = { key: change.key, seq: change.seq };
  if (outcome.result === 'sent') return { ...base, ok: true, text: `${change.label}: sent.` };
  const { error } = outcome;
  let why = error.serverMessage ?? 'The portal refused it.';
  if (change.key.startsWith('offer:')) {
    const offerId = Number(change.key.slice('offer:'.length));
    const offer = offers.find((o) => o.id === offerId);
    if (offer) why = offerClosedReason(offer, error.serverMessage);
    else if (error.status === 404) why = 'The session was withdrawn, so the offer no longer exists.';
  }
  return { ...base, ok: false, text: `${change.label}: not sent. ${why}` };
}
