import { zodResolver } from '@hookform/resolvers/zod';
import {
  erasureKindLabel,
  RETENTION_KINDS,
  type RetentionCounts,
  type RetentionResponse,
  type RetentionSettingsForm,
  retentionSettingsForm,
} from '@shared/schemas/retention';
import { Save } from 'lucide-react';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormError, FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/components/ui/use-toast';
import { errorMessage, showRefusal } from '@/lib/api';
import { useErasures, useRetention, useRetentionPreview, useSaveRetention } from '../api/retention-api';
import { RETENTION_KIND_LABELS } from './retention-labels';

const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const day = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });
const dayOf = (date: string) => day.format(new Date(`${date}T00:00:00Z`));

const resolver = zodResolver(retentionSettingsForm);

/** Staff: the retention schedule, what its next run would remove, its last run, and the erasures made. */
export function RetentionSettings() {
  const retention = useRetention();
  if (retention.isError) {
    return (
      <p role="alert" className="text-destructive">
        The retention schedule could not be loaded: {errorMessage(retention.error, 'please try again.')}
      </p>
    );
  }
  if (!retention.data) {
    return (
      <div role="status">
        <span className="sr-only">Loading the retention schedule</span>
        <Skeleton className="h-64 w-full" />
      </div>
    );
  }
  return (
    <>
      <ScheduleForm saved={retention.data} />
      <NextRun />
      <LastRun lastRun={retention.data.lastRun} />
      <Erasures />
    </>
  );
}

const formFrom = (saved: RetentionResponse): RetentionSettingsForm => ({
  certificateMonths: String(saved.settings.certificateMonths),
  anonymiseMonths: String(saved.settings.anonymiseMonths),
  recordsYears: String(saved.settings.recordsYears),
});

function ScheduleForm({ saved }: { saved: RetentionResponse }) {
  const id = useId();
  const save = useSaveRetention();
  const form = useForm<RetentionSettingsForm, unknown, ReturnType<typeof retentionSettingsForm.parse>>({
    resolver,
    defaultValues: formFrom(saved),
  });
  const { errors } = form.formState;
  const onSave = form.handleSubmit((body) =>
    save.mutate(body, {
      onSuccess: (stored) => {
        form.reset(formFrom(stored));
        toast({ title: 'Retention schedule saved', variant: 'success' });
      },
      onError: (error) => showRefusal(form.setError, error, 'The schedule could not be saved'),
    }),
  );
  const field = (name: keyof RetentionSettingsForm, label: string, description: string) => (
    <FormField id={`${id}-${name}`} label={label} description={description} error={errors[name]?.message}>
      <Input inputMode="numeric" autoComplete="off" className="max-w-28" {...form.register(name)} />
    </FormField>
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h3>Retention schedule</h3>
        </CardTitle>
        <CardDescription>
          How long the portal keeps personal data. It runs once a day; periods for leavers count from the day
          they were deactivated.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSave} noValidate aria-label="Retention schedule" className="grid gap-4">
          {field(
            'certificateMonths',
            'Months a leaver’s certificate number is kept',
            'Then only its last four digits stay, with the check’s date, type and result.',
          )}
          {field(
            'anonymiseMonths',
            'Months before a leaver is anonymised',
            'Their name, username, email and photo are removed; sessions they delivered stay.',
          )}
          {field(
            'recordsYears',
            'Years records are kept',
            'Availability, offers, notes, reminders sent, history and the viewing log older than this are removed.',
          )}
          <FormError formState={form.formState} />
          <div>
            <Button type="submit" disabled={save.isPending}>
              <Save aria-hidden />
              {save.isPending ? 'Saving…' : 'Save schedule'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function CountsTable({ counts, caption }: { counts: RetentionCounts; caption: string }) {
  return (
    <Table>
      <caption className="sr-only">{caption}</caption>
      <TableHeader>
        <TableRow>
          <TableHead scope="col">Kind</TableHead>
          <TableHead scope="col">
            <span className="block text-right">Count</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {RETENTION_KINDS.map((kind) => (
          <TableRow key={kind}>
            <TableCell>{RETENTION_KIND_LABELS[kind]}</TableCell>
            <TableCell className="text-right tabular-nums">{counts[kind]}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function NextRun() {
  const preview = useRetentionPreview();
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h3>What the next run would remove</h3>
        </CardTitle>
        <CardDescription>
          {preview.data
            ? `If it ran today (${dayOf(preview.data.asOf)}): records dated before ${dayOf(preview.data.recordsBefore)} go.`
            : 'Counts by kind, if the schedule ran today.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {preview.isError ? (
          <p role="alert" className="text-destructive">
            The preview could not be loaded: {errorMessage(preview.error, 'please try again.')}
          </p>
        ) : preview.data ? (
          <CountsTable counts={preview.data.counts} caption="What the next run would remove" />
        ) : (
          <div role="status">
            <span className="sr-only">Loading the preview</span>
            <Skeleton className="h-40 w-full" />
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function LastRun({ lastRun }: { lastRun: RetentionResponse['lastRun'] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h3>Last run</h3>
        </CardTitle>
        <CardDescription>
          {lastRun ? `Ran ${when.format(new Date(lastRun.ranAt))}.` : 'The schedule has not run yet.'}
        </CardDescription>
      </CardHeader>
      {lastRun ? (
        <CardContent>
          <CountsTable counts={lastRun.counts} caption="What the last run removed" />
        </CardContent>
      ) : null}
    </Card>
  );
}

function Erasures() {
  const erasures = useErasures();
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h3>Erasures</h3>
        </CardTitle>
        <CardDescription>
          Each erasure made, who made it and why. Nothing about the person erased is kept.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {erasures.isError ? (
          <p role="alert" className="text-destructive">
            The erasures could not be loaded: {errorMessage(erasures.error, 'please try again.')}
          </p>
        ) : !erasures.data ? (
          <div role="status">
            <span className="sr-only">Loading the erasures</span>
            <Skeleton className="h-24 w-full" />
          </div>
        ) : erasures.data.length === 0 ? (
          <p className="text-muted-foreground text-sm">No one has been erased.</p>
        ) : (
          <ul aria-label="Erasures" className="grid gap-3">
            {erasures.data.map((erasure) => (
              <li key={erasure.id} className="grid gap-1 rounded-md border p-3 text-sm">
                <p className="font-medium">
                  {when.format(new Date(erasure.erasedAt))}, by {erasure.erasedBy}
                </p>
                <p>Reason: {erasure.reason}</p>
                <p className="text-muted-foreground">
                  Removed:{' '}
                  {Object.entries(erasure.removed)
                    .filter(([, n]) => n > 0)
                    .map(([kind, n]) => `${erasureKindLabel(kind)} ${n}`)
                    .join(', ') || 'nothing'}
                </p>
                {erasure.kept.length > 0 ? (
                  <p className="text-muted-foreground">
                    Kept:{' '}
                    {erasure.kept.map((k) => `${erasureKindLabel(k.kind)} ${k.count} (${k.why})`).join('; ')}
                  </p>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
