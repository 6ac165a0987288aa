import type { MyOffer } from '@shared/schemas/offers';
import { Check, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { errorMessage } from '@/lib/api';
import { useAnswerOfferLink, useOfferLink } from '../api/offers-api';
import {
  dayLabel,
  END_REASON_LABEL,
  isOpen,
  placeOf,
  replyByLabel,
  STATE_LABEL,
  timesOf,
} from '../lib/offer-format';
import { DeclineReasonField, useDeclineForm } from './decline-reason';

/**
 * The page an offer email's link opens. Showing it changes nothing; only its buttons answer, so a
 * mail scanner that opens the link accepts nothing. The token stays in the address's fragment.
 */
export function OfferLinkPage({ token }: { token: string }) {
  const view = useOfferLink(token);
  const answer = useAnswerOfferLink(token);
  const [declining, setDeclining] = useState(false);
  const decline = useDeclineForm();
  const [done, setDone] = useState<MyOffer | null>(null);

  if (!token) return <Notice title="This link is not complete">Open the link from your email again.</Notice>;
  if (view.isPending) return <p className="text-muted-foreground">Loading the offer…</p>;
  if (view.error)
    return (
      <Notice title="This link cannot be used">{errorMessage(view.error, 'This link is not valid.')}</Notice>
    );
  if (done)
    return (
      <Notice title={done.state === 'accepted' ? 'Session accepted' : 'Offer declined'}>
        {done.state === 'accepted'
          ? `Thank you. ${dayLabel(done.date)}, ${timesOf(done)}, ${placeOf(done)} is now booked for you.`
          : 'Thank you for letting us know.'}
      </Notice>
    );

  const { offer, name } = view.data;
  const answerable = isOpen(offer);
  return (
    <Card className="mx-auto w-full max-w-lg">
      <CardHeader>
        <CardTitle>
          <h1 className="text-xl">Session offered to {name}</h1>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid gap-1 text-sm">
          <div>
            <dt className="inline font-medium">When: </dt>
            <dd className="inline">
              {dayLabel(offer.date)}, {timesOf(offer)}
            </dd>
          </div>
          <div>
            <dt className="inline font-medium">Where: </dt>
            <dd className="inline">{placeOf(offer)}</dd>
          </div>
          {offer.message ? (
            <div>
              <dt className="inline font-medium">Message from the team: </dt>
              <dd className="inline">{offer.message}</dd>
            </div>
          ) : null}
          <div>
            <dt className="inline font-medium">Reply by: </dt>
            <dd className="inline">{replyByLabel(offer.replyBy)}</dd>
          </div>
        </dl>
        {!answerable ? (
          <p role="status">
            This offer is {STATE_LABEL[offer.state].toLowerCase()}.{' '}
            {offer.endedReason ? END_REASON_LABEL[offer.endedReason] : ''}
          </p>
        ) : (
          <>
            {declining ? <DeclineReasonField form={decline} /> : null}
            {answer.error ? (
              <p role="alert" className="text-destructive text-sm">
                {errorMessage(answer.error, 'Could not send your answer.')}
              </p>
            ) : null}
            <div className="flex flex-wrap gap-2">
              {declining ? (
                <>
                  <Button variant="outline" onClick={() => setDeclining(false)}>
                    Back
                  </Button>
                  <Button
                    variant="destructive"
                    disabled={answer.isPending}
                    onClick={decline.handleSubmit(({ reason }) =>
                      answer.mutate({ accept: false, reason }, { onSuccess: setDone }),
                    )}
                  >
                    <X aria-hidden />
                    Decline offer
                  </Button>
                </>
              ) : (
                <>
                  <Button
                    disabled={answer.isPending}
                    onClick={() => answer.mutate({ accept: true }, { onSuccess: setDone })}
                  >
                    <Check aria-hidden />
                    Accept session
                  </Button>
                  <Button variant="outline" onClick={() => setDeclining(true)}>
                    Decline…
                  </Button>
                </>
              )}
            </div>
            <p className="text-muted-foreground text-sm">
              This link works once. The first facilitator to accept gets the session.
            </p>
          </>
        )}
      </CardContent>
    </Card>
  );
}

function Notice({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card className="mx-auto w-full max-w-lg">
      <CardHeader>
        <CardTitle>
          <h1 className="text-xl">{title}</h1>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <p role="status">{children}</p>
      </CardContent>
    </Card>
  );
}
