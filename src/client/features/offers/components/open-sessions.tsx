import { zodResolver } from '@hookform/resolvers/zod';
import { addDays } from '@shared/calendar';
import { mayBeSent, SAFEGUARDING_STATE_LABELS } from '@shared/safeguarding';
import type { FreeFacilitator } from '@shared/schemas/free';
import {
  type CreateSessionInput,
  createSessionBody,
  type OfferForm,
  type OfferFormOutput,
  type OpenSession,
  offerForm,
  SAFEGUARDING_OVERRIDE_REASON_MAX,
  SESSION_DAYS_AHEAD,
  type StaffOffer,
} from '@shared/schemas/offers';
import { Plus, RefreshCw, Send } from 'lucide-react';
import type * as React from 'react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { type Resolver, useForm, useWatch } from 'react-hook-form';
import { Link } from 'wouter';
import { SafeguardingBadge } from '@/components/safeguarding-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { FormError, FormField, firstMessage } from '@/components/ui/form';
import { FormCheckbox } from '@/components/ui/form-checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { SpacerItem, useRowWindow, windowedItemProps } from '@/components/ui/windowed-rows';
import { ApiError, errorMessage, showRefusal } from '@/lib/api';
import { browserToday } from '@/lib/browser-today';
import { useSettledValue } from '@/lib/use-settled-value';
import { useCandidates } from '../api/candidates-api';
import {
  useCreateOffers,
  useCreateSession,
  useOpenSessions,
  useRefreshSessions,
  useSessionOffers,
  useSessionsRefreshRunning,
  useWithdrawOffer,
} from '../api/offers-api';
import {
  dayLabel,
  defaultReplyBy,
  END_REASON_LABEL,
  placeOf,
  replyByLabel,
  STATE_LABEL,
  STATE_VARIANT,
  timesOf,
} from '../lib/offer-format';

/** Staff: sessions without a facilitator, each offered from its own dialog. */
export function OpenSessions() {
  const query = useOpenSessions();
  const refresh = useRefreshSessions({
    onSuccess: () => toast({ title: 'Open sessions refreshed from SharePoint' }),
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Could not refresh from SharePoint',
        description: errorMessage(error, 'Please try again.'),
      }),
  });
  // running, whichever visit to this page asked for it
  const refreshing = useSessionsRefreshRunning();
  const [offering, setOffering] = useState<OpenSession | null>(null);
  const [creating, setCreating] = useState(false);
  const sessions = query.data?.sessions ?? [];
  const pending = query.data?.pending ?? [];
  const configured = query.data?.sharePointConfigured ?? true;

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => setCreating(true)}>
          <Plus aria-hidden />
          New session
        </Button>
        <Button variant="outline" onClick={() => refresh.mutate()} disabled={!configured || refreshing}>
          <RefreshCw aria-hidden className={refreshing ? 'animate-spin' : undefined} />
          {refreshing ? 'Refreshing...' : 'Refresh from SharePoint'}
        </Button>
      </div>
      {!configured ? <NotSetUp /> : null}
      {query.error ? (
        <p role="alert" className="text-destructive">
          {errorMessage(query.error, 'Could not load the open sessions.')}
        </p>
      ) : query.isPending ? (
        <p className="text-muted-foreground">Loading open sessions…</p>
      ) : sessions.length === 0 && pending.length === 0 && configured ? (
        <p className="text-muted-foreground">
          No open sessions: every session in SharePoint from today on has a facilitator.
        </p>
      ) : null}
      {pending.length > 0 ? (
        <section aria-labelledby="pending-heading" className="grid gap-2">
          <h2 id="pending-heading" className="font-semibold text-lg">
            On their way to SharePoint
          </h2>
          <ul className="grid gap-2">
            {pending.map((p) => (
              <li key={p.id} className="rounded-md border p-3 text-sm [overflow-wrap:anywhere]">
                <span className="font-medium">{dayLabel(p.date)}</span>, {timesOf(p)}, {placeOf(p)}
                <span className="block text-muted-foreground">
                  {!configured
                    ? 'Waiting for SharePoint to be set up: it is added to the Bookings list then.'
                    : p.lastError
                      ? `SharePoint has not taken it yet (${p.lastError}). The portal keeps trying, and lists it here as soon as SharePoint has it.`
                      : 'Being added to SharePoint: it is listed here as an open session as soon as SharePoint has it, usually within a minute.'}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {sessions.length > 0 ? (
        <ul aria-label="Open sessions" className="grid gap-3">
          {sessions.map((session) => (
            <li key={session.id}>
              <Card>
                <CardContent className="flex flex-wrap items-center justify-between gap-3">
                  <div className="grid gap-1">
                    <p className="font-medium">{dayLabel(session.date)}</p>
                    <p className="text-sm">
                      {timesOf(session)} · {placeOf(session)}
                    </p>
                    {session.location ? (
                      <p className="text-muted-foreground text-sm">Location: {session.location}</p>
                    ) : null}
                    {session.liveOffers > 0 ? (
                      <p className="text-muted-foreground text-sm">
                        {session.liveOffers === 1
                          ? '1 offer waiting for an answer'
                          : `${session.liveOffers} offers waiting for an answer`}
                      </p>
                    ) : null}
                  </div>
                  <Button
                    onClick={() => setOffering(session)}
                    aria-label={`Offer ${dayLabel(session.date)}, ${placeOf(session)}`}
                  >
                    <Send aria-hidden />
                    Offer
                  </Button>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      ) : null}
      {offering ? <OfferDialog session={offering} onClose={() => setOffering(null)} /> : null}
      {creating ? <CreateSessionDialog onClose={() => setCreating(false)} /> : null}
    </div>
  );
}

function OfferDialog({ session, onClose }: { session: OpenSession; onClose: () => void }) {
  const ids = useId();
  const [search, setSearch] = useState('');
  const searched = useSettledValue(search.trim(), CANDIDATES_SEARCH_DELAY_MS);
  const candidates = useCandidates(session.id, searched);
  const offers = useSessionOffers(session.id);
  const create = useCreateOffers(session.id);
  const withdraw = useWithdrawOffer();
  const form = useForm<OfferForm, unknown, OfferFormOutput>({
    resolver: zodResolver(offerForm),
    defaultValues: { userIds: [], message: '', replyBy: defaultReplyBy(session), autoNext: false },
  });
  const chosen = useWatch({ control: form.control, name: 'userIds' });
  const errors = form.formState.errors;
  // the chosen who are not free, as the server named them: staff confirm with "Offer anyway"
  const [warnings, setWarnings] = useState<string[] | null>(null);
  const live = new Set(
    (offers.data ?? []).filter((o) => o.state === 'sent' || o.state === 'seen').map((o) => o.userId),
  );

  // everyone is listed, ranked: 5,000 rows at 5,000 facilitators, so a long list draws the rows in
  // view, and reads them a page at a time as they come into view
  const pages = candidates.data?.pages;
  const candidateList = useMemo(() => (pages ?? []).flatMap((page) => page.facilitators), [pages]);
  const first = pages?.[0];
  const total = first ? first.freeCount + first.leftOutCount : 0;
  const candidateWindow = useRowWindow({
    count: candidateList.length,
    total,
    estimateRowHeight: CANDIDATE_HEIGHT,
    rowKey: (index) => candidateList[index]!.userId,
  });
  const lastDrawn = candidateWindow.rows.at(-1) ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = candidates;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastDrawn >= candidateList.length - LOAD_AHEAD_ROWS)
      void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, lastDrawn, candidateList.length]);

  // Everyone chosen, as their row was read: a new search leaves them chosen though no longer listed.
  const seen = useRef(new Map<number, FreeFacilitator>());
  for (const f of candidateList) seen.current.set(f.userId, f);
  // the chosen whose checks do not allow sending on the session's date: staff must say why they offer
  const notClear = chosen
    .map((id) => seen.current.get(Number(id)))
    .filter((f): f is FreeFacilitator => f !== undefined && !mayBeSent(f.safeguarding.state));

  const send = (confirmNotFree: boolean) =>
    form.handleSubmit((offer) =>
      create.mutate(
        { ...offer, confirmNotFree },
        {
          onSuccess: (made) => {
            form.reset({ ...form.getValues(), userIds: [] });
            setWarnings(null);
            const count = made.offers.length;
            toast({ title: count === 1 ? 'Offer sent' : `${count} offers sent` });
          },
          onError: (error) => {
            // the chosen who are not free: the server names them for staff to confirm
            const notFree =
              error instanceof ApiError && error.status === 409 ? error.fields.confirmNotFree : undefined;
            if (notFree) {
              setWarnings([...notFree]);
              return;
            }
            // someone's checks lapsed since the list was loaded: the server names them
            if (error instanceof ApiError && error.status === 409) {
              form.setError('root', { message: errorMessage(error, 'Could not send the offer.') });
              void candidates.refetch();
              return;
            }
            showRefusal(form.setError, error, 'Could not send the offer.');
          },
        },
      ),
    )();

  const toggle = (userId: number, on: boolean) =>
    form.setValue('userIds', on ? [...chosen, userId] : chosen.filter((id) => id !== userId), {
      shouldValidate: form.formState.isSubmitted,
    });
  // the server names the reason by its place in the body
  const reasonError =
    errors.overrideReason?.message ?? firstMessage((errors as Record<string, unknown>).safeguardingOverride);

  return (
    <Dialog open onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent width="2xl" focusDialog>
        <DialogHeader>
          <DialogTitle>Offer this session</DialogTitle>
          <DialogDescription>
            {dayLabel(session.date)}, {timesOf(session)}, {placeOf(session)}
          </DialogDescription>
        </DialogHeader>

        {(offers.data ?? []).length > 0 ? (
          <section aria-labelledby={`${ids}-offers`} className="grid gap-2">
            <h3 id={`${ids}-offers`} className="font-medium">
              Offers made
            </h3>
            <ul className="grid gap-2">
              {(offers.data ?? []).map((offer) => (
                <OfferRow key={offer.id} offer={offer} onWithdraw={() => withdraw.mutate(offer.id)} />
              ))}
            </ul>
          </section>
        ) : null}

        <fieldset className="grid gap-2">
          <legend className="mb-2 font-medium">Who is free, best match first</legend>
          <Input
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Name, email or area"
            aria-label="Search facilitators"
            className="max-w-sm"
          />
          {candidates.isPending ? <p className="text-muted-foreground text-sm">Loading…</p> : null}
          {candidates.error ? (
            <p role="alert" className="text-destructive text-sm">
              {errorMessage(candidates.error, 'Could not load who is free.')}
            </p>
          ) : null}
          <div
            ref={candidateWindow.scrollRef}
            className="relative max-h-72 overflow-y-auto rounded-md border p-2"
          >
            <ul aria-label="Facilitators">
              <SpacerItem height={candidateWindow.before} />
              {candidateWindow.rows.map((position) => {
                const f = candidateList[position]!;
                return (
                  <li
                    key={f.userId}
                    className="pb-1 last:pb-0"
                    {...windowedItemProps(candidateWindow, position, total)}
                  >
                    <CandidateRow
                      candidate={f}
                      checked={chosen.includes(f.userId)}
                      alreadyOffered={live.has(f.userId)}
                      onChange={(on) => toggle(f.userId, on)}
                    />
                  </li>
                );
              })}
              <SpacerItem height={candidateWindow.after} />
            </ul>
          </div>
          {errors.userIds ? <p className="text-destructive text-sm">{errors.userIds.message}</p> : null}
        </fieldset>

        {notClear.length > 0 ? (
          <div className="grid gap-2 rounded-md border border-destructive p-3">
            <Label htmlFor={`${ids}-override`}>Reason for offering despite safeguarding checks</Label>
            <p id={`${ids}-override-who`} className="text-muted-foreground text-sm">
              Checks on {dayLabel(session.date)} do not allow sending {notClear.map((f) => f.name).join(', ')}
              . The reason is kept with the offer.
            </p>
            <Textarea
              id={`${ids}-override`}
              // a field only while it is asked: the reason goes with the offer then, and only then
              {...form.register('overrideReason', { shouldUnregister: true })}
              maxLength={SAFEGUARDING_OVERRIDE_REASON_MAX}
              required
              aria-invalid={reasonError ? true : undefined}
              aria-describedby={`${ids}-override-who${reasonError ? ` ${ids}-override-error` : ''}`}
            />
            {reasonError ? (
              <p id={`${ids}-override-error`} className="text-destructive text-sm">
                {reasonError}
              </p>
            ) : null}
          </div>
        ) : null}

        <div className="grid gap-2">
          <Label htmlFor={`${ids}-message`}>Message (optional)</Label>
          <Textarea id={`${ids}-message`} {...form.register('message')} maxLength={1000} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${ids}-reply`}>Reply by</Label>
          <Input
            id={`${ids}-reply`}
            type="datetime-local"
            {...form.register('replyBy')}
            aria-invalid={errors.replyBy ? true : undefined}
            aria-describedby={errors.replyBy ? `${ids}-reply-error` : undefined}
          />
          {errors.replyBy ? (
            <p id={`${ids}-reply-error`} className="text-destructive text-sm">
              {errors.replyBy.message}
            </p>
          ) : null}
        </div>
        <div className="flex items-center gap-2">
          <FormCheckbox control={form.control} name="autoNext" id={`${ids}-next`} />
          <Label htmlFor={`${ids}-next`}>
            If someone declines or does not reply in time, offer the next ranked facilitator automatically
          </Label>
        </div>
        <FormError formState={form.formState} className="font-normal" />
        {warnings ? (
          <div role="alert" className="grid gap-2 rounded-md border border-warning p-3 text-sm">
            <p className="font-medium">Not everyone you chose looks free:</p>
            <ul className="list-disc pl-5">
              {warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
            <div>
              <Button variant="outline" onClick={() => send(true)} disabled={create.isPending}>
                Offer anyway
              </Button>
            </div>
          </div>
        ) : null}
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
          <Button onClick={() => send(false)} disabled={chosen.length === 0 || create.isPending}>
            <Send aria-hidden />
            {chosen.length > 1 ? `Send ${chosen.length} offers` : 'Send offer'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** How long typing pauses before the candidates are read for what was typed. */
const CANDIDATES_SEARCH_DELAY_MS = 300;
/** The next page is asked for when the rows drawn reach this close to the last one read. */
const LOAD_AHEAD_ROWS = 10;

/** A candidate's usual height: a name and, below it, their status and area or why they are not free. */
const CANDIDATE_HEIGHT = 46;

function CandidateRow({
  candidate,
  checked,
  alreadyOffered,
  onChange,
}: {
  candidate: FreeFacilitator;
  checked: boolean;
  alreadyOffered: boolean;
  onChange: (on: boolean) => void;
}) {
  const id = useId();
  const detail = candidate.free
    ? [candidate.status ? capitalise(candidate.status) : null, candidate.area].filter(Boolean).join(' · ')
    : candidate.reasons.join('; ');
  return (
    <div className="flex flex-wrap items-start gap-2 rounded p-1">
      <Checkbox
        id={id}
        checked={checked}
        disabled={alreadyOffered}
        onCheckedChange={(v) => onChange(v === true)}
        className="mt-0.5"
      />
      <Label plain htmlFor={id} className="grid items-center gap-0.5 font-normal leading-none">
        <span className="font-medium">
          {candidate.name}
          {alreadyOffered ? ' (offered)' : ''}
        </span>
        {detail ? <span className="text-muted-foreground text-xs">{detail}</span> : null}
      </Label>
      <span className="ml-auto">
        <SafeguardingBadge state={candidate.safeguarding.state} reasons={candidate.safeguarding.reasons} />
      </span>
    </div>
  );
}

function OfferRow({ offer, onWithdraw }: { offer: StaffOffer; onWithdraw: () => void }) {
  const live = offer.state === 'sent' || offer.state === 'seen';
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-2 text-sm">
      <div className="grid gap-0.5">
        <span className="font-medium">{offer.name}</span>
        <span className="text-muted-foreground text-xs">
          {live
            ? `Reply by ${replyByLabel(offer.replyBy)}`
            : offer.endedReason
              ? END_REASON_LABEL[offer.endedReason]
              : ''}
          {offer.declineReason ? `Reason: ${offer.declineReason}` : ''}
          {offer.override
            ? ` · Offered although ${offer.override === 'booked' ? 'already booked' : 'unavailable'}`
            : ''}
          {offer.safeguardingOverride
            ? ` · Offered despite safeguarding checks (${SAFEGUARDING_STATE_LABELS[offer.safeguardingOverride.state].toLowerCase()}): ${offer.safeguardingOverride.reason}`
            : ''}
          {offer.emailError ? ` · Email not sent: ${offer.emailError}` : ''}
          {offer.writeBack === 'pending' ? ' · Being written to SharePoint' : ''}
        </span>
      </div>
      <div className="flex items-center gap-2">
        <Badge variant={STATE_VARIANT[offer.state]}>{STATE_LABEL[offer.state]}</Badge>
        {live ? (
          <Button
            size="sm"
            variant="outline"
            onClick={onWithdraw}
            aria-label={`Withdraw the offer to ${offer.name}`}
          >
            Withdraw
          </Button>
        ) : null}
      </div>
    </li>
  );
}

/** Where a fresh install stands: nothing is read from SharePoint until it is set up. */
function NotSetUp() {
  return (
    <p role="status" className="rounded-md border border-warning/60 bg-warning/10 p-3 text-sm">
      SharePoint is not set up yet, so no sessions have been read from the Bookings list.{' '}
      <Link href="/settings" className="font-medium text-primary underline underline-offset-4">
        Set it up in Settings
      </Link>
      .
    </p>
  );
}

type SessionFormValues = CreateSessionInput;

// the body's own rules (the server applies the same schema), the values sent as typed
const sessionResolver: Resolver<SessionFormValues> = zodResolver(createSessionBody, undefined, { raw: true });

function CreateSessionDialog({ onClose }: { onClose: () => void }) {
  const ids = useId();
  const create = useCreateSession();
  const today = browserToday();
  const form = useForm<SessionFormValues>({
    resolver: sessionResolver,
    defaultValues: { date: '', startTime: '09:30', endTime: '12:00', schoolName: '', program: '' },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;
  const submit = form.handleSubmit((values) =>
    create.mutate(values, {
      onSuccess: () => {
        toast({
          title: 'Session sent to SharePoint',
          description: 'It is listed here as an open session as soon as SharePoint has it.',
        });
        onClose();
      },
      onError: (error) => showRefusal(form.setError, error, 'Could not create the session.'),
    }),
  );
  const field = (
    name: keyof SessionFormValues,
    label: string,
    input: React.ComponentProps<typeof Input> = {},
  ) => (
    <FormField id={`${ids}-${name}`} label={label} error={errors[name]?.message}>
      <Input {...input} {...form.register(name)} />
    </FormField>
  );
  return (
    <Dialog open onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent focusDialog>
        <DialogHeader>
          <DialogTitle>New session</DialogTitle>
          <DialogDescription>
            The session is added to the SharePoint Bookings list without a facilitator, and is listed here as
            open as soon as SharePoint has it.
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-3" onSubmit={submit} noValidate>
          {field('date', 'Date', {
            type: 'date',
            min: today,
            max: addDays(today, SESSION_DAYS_AHEAD),
          })}
          <div className="grid grid-cols-2 gap-3">
            {field('startTime', 'Start time', { type: 'time' })}
            {field('endTime', 'End time', { type: 'time' })}
          </div>
          {field('schoolName', 'School')}
          {field('program', 'Program (optional)')}
          <FormError formState={form.formState} />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending || form.formState.isSubmitting}>
              Create session
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
