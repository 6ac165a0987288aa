import type { MyOffer } from '@shared/schemas/offers';
import { Check } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { toast } from '@/components/ui/use-toast';
import { ApiError, errorMessage } from '@/lib/api';
import { WAITING_DESCRIPTION, WAITING_TITLE } from '@/lib/offline-queue';
import { useAnswerOffer, useMyOffers } from '../api/offers-api';
import {
  dayLabel,
  END_REASON_LABEL,
  isOpen,
  placeOf,
  replyByLabel,
  STATE_VARIANT,
  stateLabel,
  timesOf,
} from '../lib/offer-format';

const loadDeclineStep = () => import('./decline-step');
const DeclineStep = lazy(loadDeclineStep);

/** The signed-in facilitator's offers, newest sessions last, each answered in a dialog. */
export function MyOffers() {
  const query = useMyOffers();
  const [open, setOpen] = useState<MyOffer | null>(null);
  const offers = query.data ?? [];
  const waiting = offers.filter((o) => isOpen(o));
  const others = offers.filter((o) => !isOpen(o));
  if (query.error)
    return (
      <p role="alert" className="text-destructive">
        {errorMessage(query.error, 'Could not load your offers.')}
      </p>
    );
  if (query.isPending) return <p className="text-muted-foreground">Loading your offers…</p>;
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <section aria-labelledby="waiting-heading" className="grid gap-3">
        <h2 id="waiting-heading" className="font-semibold text-lg">
          Waiting for your answer
        </h2>
        {waiting.length === 0 ? (
          <p className="text-muted-foreground">No offers are waiting for your answer.</p>
        ) : null}
        <ul className="grid gap-3">
          {waiting.map((offer) => (
            <li key={offer.id}>
              <OfferCard offer={offer} onOpen={() => setOpen(offer)} />
            </li>
          ))}
        </ul>
      </section>
      {others.length > 0 ? (
        <section aria-labelledby="past-heading" className="grid gap-3">
          <h2 id="past-heading" className="font-semibold text-lg">
            Answered and closed
          </h2>
          <ul className="grid gap-3">
            {others.map((offer) => (
              <li key={offer.id}>
                <OfferCard offer={offer} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {open ? <OfferAnswerDialog offer={open} onClose={() => setOpen(null)} /> : null}
    </div>
  );
}

function OfferCard({ offer, onOpen }: { offer: MyOffer; onOpen?: () => void }) {
  return (
    <Card>
      <CardContent className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <p className="font-medium">{dayLabel(offer.date)}</p>
          <p className="text-sm">
            {timesOf(offer)} · {placeOf(offer)}
          </p>
          {onOpen ? (
            <p className="text-muted-foreground text-sm">Reply by {replyByLabel(offer.replyBy)}</p>
          ) : offer.endedReason ? (
            <p className="text-muted-foreground text-sm">{END_REASON_LABEL[offer.endedReason]}</p>
          ) : null}
        </div>
        <div className="flex items-center gap-2">
          <Badge variant={STATE_VARIANT[offer.state]}>{stateLabel(offer)}</Badge>
          {onOpen ? (
            <Button onClick={onOpen} aria-label={`Answer the offer for ${dayLabel(offer.date)}`}>
              Answer
            </Button>
          ) : null}
        </div>
      </CardContent>
    </Card>
  );
}

/**
 * Accept or decline one offer (opened from the offers list or the calendar). Opening it marks it seen.
 * It follows the offer as the portal last read it: one that closed meanwhile (another facilitator
 * took the session, the team withdrew it, its time passed) says why and can no longer be answered.
 */
export function OfferAnswerDialog({ offer: opened, onClose }: { offer: MyOffer; onClose: () => void }) {
  const answer = useAnswerOffer();
  const mine = useMyOffers();
  const offer = mine.data?.find((o) => o.id === opened.id) ?? opened;
  const [declining, setDeclining] = useState(false);
  // the reason typed so far, kept while the person steps back from declining
  const [reason, setReason] = useState('');
  // the decline step's code, loaded while the person reads the offer
  useEffect(() => {
    loadDeclineStep().catch(() => {});
  }, []);
  const [error, setError] = useState<string | null>(null);
  // refused as no longer open: nothing more to send, whatever the list says until it is read again
  const [refused, setRefused] = useState(false);
  const [marked, setMarked] = useState(false);
  if (!marked && offer.state === 'sent') {
    setMarked(true);
    answer.mutate({ offer, answer: { action: 'seen' } });
  }
  const closed = refused || !isOpen(offer);
  const respond = (kind: 'accept' | 'decline', reason = '') =>
    answer.mutate(
      { offer, answer: kind === 'accept' ? { action: 'accept' } : { action: 'decline', reason } },
      {
        onSuccess: (result) => {
          if (result.queued) {
            toast({ title: WAITING_TITLE, description: WAITING_DESCRIPTION });
            onClose();
            return;
          }
          toast({
            title: kind === 'accept' ? 'Session accepted: it is now on your calendar' : 'Offer declined',
          });
          onClose();
        },
        onError: (e) => {
          if (e instanceof ApiError && e.status === 409) setRefused(true);
          setError(errorMessage(e, 'Could not send your answer.'));
        },
      },
    );
  const why = closedReason(offer, error);
  const refusal =
    error && !closed ? (
      <p role="alert" className="text-destructive text-sm">
        {error}
      </p>
    ) : null;
  return (
    <Dialog open onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Session offered to you</DialogTitle>
          <DialogDescription>
            {dayLabel(offer.date)}, {timesOf(offer)}, {placeOf(offer)}
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-2 text-sm">
          {offer.location ? <p>Location: {offer.location}</p> : null}
          {offer.message ? (
            <p>
              <span className="font-medium">Message from the team:</span> {offer.message}
            </p>
          ) : null}
          {closed ? null : (
            <p>Reply by {replyByLabel(offer.replyBy)}. The first facilitator to accept gets the session.</p>
          )}
        </div>
        {closed ? (
          <p role="alert" className="font-medium text-sm">
            {why}
          </p>
        ) : declining ? (
          <Suspense fallback={<p className="text-muted-foreground text-sm">Loading…</p>}>
            <DeclineStep
              reason={reason}
              pending={answer.isPending}
              onBack={(typed) => {
                setReason(typed);
                setDeclining(false);
              }}
              onDecline={(typed) => respond('decline', typed)}
            >
              {refusal}
            </DeclineStep>
          </Suspense>
        ) : null}
        {declining && !closed ? null : (
          <>
            {refusal}
            <DialogFooter>
              {closed ? (
                <Button variant="outline" onClick={onClose}>
                  Done
                </Button>
              ) : (
                <>
                  <Button variant="outline" onClick={() => setDeclining(true)}>
                    Decline…
                  </Button>
                  <Button onClick={() => respond('accept')} disabled={answer.isPending}>
                    <Check aria-hidden />
                    Accept session
                  </Button>
                </>
              )}
            </DialogFooter>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** Why an offer can no longer be answered, in words; the server's refusal until the list says more. */
export function closedReason(offer: MyOffer, refusal: string | null): string {
  if (offer.state === 'withdrawn' && offer.endedReason)
    return `This offer can no longer be answered. ${END_REASON_LABEL[offer.endedReason]}`;
  if (offer.state === 'accepted') return 'You accepted this session: it is on your calendar.';
  if (offer.state === 'declined') return 'You declined this offer.';
  if (offer.state === 'expired' || new Date(offer.replyBy).getTime() <= Date.now())
    return 'This offer can no longer be answered: its reply-by time has passed.';
  return refusal ?? 'This offer can no longer be answered.';
}
