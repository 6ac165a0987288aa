import { zodResolver } from '@hookform/resolvers/zod';
import {
  type PatternPreview,
  type PatternResult,
  type PatternForm as PatternValues,
  patternForm,
} from '@shared/schemas/patterns';
import { CheckCircle2, Info, Lock } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { type FieldPath, useForm } from 'react-hook-form';
import { AvailabilityFormFields, DateField, WeekdayChoice } from '@/components/availability-fields';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/use-toast';
import { errorFields } from '@/lib/api';
import { browserToday } from '@/lib/browser-today';
import { useApplyPattern, usePatternPreview } from '../api/patterns-api';
import { anchorExplanation, defaultEndDate, formatLongDate, plural } from '../lib/pattern-format';
import { FrequencyChoice } from './pattern-fields';

const ERROR_FALLBACK = 'An error occurred. Please try again.';

/** The Repeat Pattern dialog's form, in its own file: loaded when the dialog first opens. */
export function PatternForm({ userId, onClose }: { userId: number; onClose: () => void }) {
  const id = useId();
  const patternValues = useForm<PatternValues>({
    resolver: zodResolver(patternForm),
    defaultValues: (() => {
      const today = browserToday();
      return {
        everyWeeks: 1,
        daysOfWeek: [1, 2, 3, 4, 5],
        startDate: today,
        endDate: defaultEndDate(today),
        status: 'available',
        startTime: '',
        endTime: '',
        notes: '',
      };
    })(),
    // the dialog focuses the first field in error itself (Radix selects and checkboxes included)
    shouldFocusError: false,
  });
  const values = patternValues.watch();
  // a message for the whole form (a refusal that names no field), beside the fields' own
  const [formError, setFormError] = useState<string | null>(null);
  const errors: Record<string, string | undefined> = {
    ...Object.fromEntries(Object.entries(patternValues.formState.errors).map(([k, e]) => [k, e?.message])),
    _: formError ?? undefined,
  };
  const form = useRef<HTMLFormElement>(null);
  // after a refused preview or save, the first field in error gets focus (its message is read with
  // it), so on a phone the messages above the buttons are not missed
  const [focusError, setFocusError] = useState(0);
  useEffect(() => {
    if (focusError === 0) return;
    const message = form.current?.querySelector('[data-field-error]');
    const field = message?.parentElement?.querySelector<HTMLElement>('input, textarea, button');
    field?.focus();
  }, [focusError]);
  // the preview belongs to the values it was made for; any change makes it stale
  const [preview, setPreview] = useState<{ key: string; data: PatternPreview } | null>(null);
  const [result, setResult] = useState<PatternResult | null>(null);
  const previewPattern = usePatternPreview();
  const applyPattern = useApplyPattern();

  const key = JSON.stringify(values);
  const current = preview?.key === key ? preview.data : null;

  // editing a field takes its message away (and the form's), as before any check runs again
  const edited = (field: keyof PatternValues) => {
    patternValues.clearErrors(field);
    setFormError(null);
  };
  const set = <K extends keyof PatternValues>(field: K, value: PatternValues[K]) => {
    edited(field);
    patternValues.setValue(field, value as never);
  };

  const checked = async () => {
    if (await patternValues.trigger()) return true;
    setFocusError((n) => n + 1);
    return false;
  };

  const showRefusal = (error: unknown) => {
    const found = errorFields(error, ERROR_FALLBACK);
    for (const [field, message] of Object.entries(found)) {
      if (field === '_') setFormError(message);
      else patternValues.setError(field as FieldPath<PatternValues>, { type: 'server', message });
    }
    setFocusError((n) => n + 1);
    return found;
  };

  const showPreview = async (event: FormEvent) => {
    event.preventDefault();
    if (!(await checked())) return;
    try {
      const data = await previewPattern.mutateAsync({ userId, ...values });
      setPreview({ key, data });
    } catch (error) {
      showRefusal(error);
    }
  };

  const save = async () => {
    if (!current || !(await checked())) return;
    try {
      setResult(await applyPattern.mutateAsync({ userId, ...values }));
    } catch (error) {
      const found = showRefusal(error);
      toast({ title: 'Error', description: found._ ?? ERROR_FALLBACK, variant: 'destructive' });
    }
  };

  if (result) {
    return (
      <div className="grid gap-5">
        <DialogHeader>
          <DialogTitle>Repeat Pattern</DialogTitle>
          <DialogDescription>Your pattern has been saved.</DialogDescription>
        </DialogHeader>
        <div role="status" className="grid gap-3 rounded-md border p-4 text-sm" data-testid="pattern-result">
          <p className="flex items-center gap-2 font-medium">
            <CheckCircle2 className="size-4 text-success" aria-hidden />
            {plural(result.updated, 'Updated 1 day.', `Updated ${result.updated} days.`)}
          </p>
          {result.skippedBookedDates.length > 0 ? (
            <div className="grid gap-1">
              <p>
                {plural(
                  result.skippedBookedDates.length,
                  'Skipped 1 day with confirmed bookings:',
                  `Skipped ${result.skippedBookedDates.length} days with confirmed bookings:`,
                )}
              </p>
              <ul className="list-disc pl-5">
                {result.skippedBookedDates.map((date) => (
                  <li key={date}>{formatLongDate(date)}</li>
                ))}
              </ul>
            </div>
          ) : (
            <p className="text-muted-foreground">No days were skipped.</p>
          )}
        </div>
        <DialogFooter>
          <Button onClick={onClose}>Done</Button>
        </DialogFooter>
      </div>
    );
  }

  const explanation = anchorExplanation(values.startDate, values.everyWeeks);

  return (
    <form ref={form} onSubmit={showPreview} className="grid gap-5" noValidate>
      <DialogHeader>
        <DialogTitle>Repeat Pattern</DialogTitle>
        <DialogDescription>
          Set the same availability on chosen days every week, every 2 weeks or every 4 weeks, for example for
          a school term. Preview the days, then save.
        </DialogDescription>
      </DialogHeader>
      <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_minmax(0,22rem)] lg:items-start">
        <div className="grid gap-5">
          <FrequencyChoice
            name={`${id}-every`}
            value={values.everyWeeks}
            onChange={(v) => set('everyWeeks', v)}
          />
          <WeekdayChoice
            idPrefix={`${id}-day`}
            value={values.daysOfWeek}
            onChange={(days) => set('daysOfWeek', days)}
            error={errors.daysOfWeek}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <DateField
              id={`${id}-start-date`}
              label="Start Date"
              value={values.startDate}
              onChange={(v) => set('startDate', v)}
              error={errors.startDate}
            />
            <DateField
              id={`${id}-end-date`}
              label="End Date"
              value={values.endDate}
              onChange={(v) => set('endDate', v)}
              error={errors.endDate}
            />
          </div>
          {explanation ? (
            <p className="-mt-2 text-muted-foreground text-sm" data-testid="pattern-anchor">
              {explanation}
            </p>
          ) : null}
          <AvailabilityFormFields
            control={patternValues.control}
            errors={patternValues.formState.errors}
            idPrefix={id}
            onEdit={edited}
          />
          <p className="flex gap-2 rounded-md border bg-muted p-3 text-foreground text-sm">
            <Info className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
            <span>
              Saving replaces any availability already set on the pattern's days. Days with confirmed bookings
              are skipped.
            </span>
          </p>
          {errors._ ? (
            <p role="alert" className="text-destructive text-sm">
              {errors._}
            </p>
          ) : null}
        </div>
        <PreviewPanel preview={current} stale={preview !== null && current === null} />
      </div>
      <DialogFooter>
        <Button type="button" variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant="outline" disabled={previewPattern.isPending}>
          {previewPattern.isPending ? 'Previewing...' : 'Preview Days'}
        </Button>
        <Button
          type="button"
          onClick={save}
          disabled={!current || current.dates.length === 0 || applyPattern.isPending}
        >
          {applyPattern.isPending ? 'Saving...' : 'Save Pattern'}
        </Button>
      </DialogFooter>
    </form>
  );
}

type PreviewRow = { date: string; kind: 'set' | 'replace' | 'booked' };

function PreviewPanel({ preview, stale }: { preview: PatternPreview | null; stale: boolean }) {
  const headingId = useId();
  const panel = useRef<HTMLElement>(null);
  // on a phone the preview is below the form, out of sight of the button that asked for it
  useEffect(() => {
    if (preview) panel.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [preview]);
  if (!preview) {
    return (
      <p
        className="rounded-md border border-dashed p-4 text-muted-foreground text-sm"
        aria-live="polite"
        data-testid="pattern-preview-hint"
      >
        {stale
          ? 'The pattern has changed: preview the days again before saving.'
          : 'Preview the days to see exactly what will be saved.'}
      </p>
    );
  }
  const replaced = new Set(preview.overwrittenDates);
  const rows: PreviewRow[] = [
    ...preview.dates.map((date) => ({ date, kind: replaced.has(date) ? 'replace' : 'set' }) as PreviewRow),
    ...preview.skippedBookedDates.map((date) => ({ date, kind: 'booked' }) as PreviewRow),
  ].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const count = preview.dates.length;
  const skipped = preview.skippedBookedDates.length;
  return (
    <section
      ref={panel}
      aria-labelledby={headingId}
      className="grid gap-3 rounded-md border p-4"
      data-testid="pattern-preview"
    >
      <h3 id={headingId} className="font-medium text-sm">
        Preview
      </h3>
      <div aria-live="polite" className="grid gap-1 text-sm" data-testid="pattern-preview-summary">
        <p className="font-medium">
          {count === 0
            ? 'No days match this pattern.'
            : plural(count, '1 day will be set.', `${count} days will be set.`)}
        </p>
        {replaced.size > 0 ? (
          <p>
            {plural(
              replaced.size,
              '1 of them already has availability, which will be replaced.',
              `${replaced.size} of them already have availability, which will be replaced.`,
            )}
          </p>
        ) : null}
        {skipped > 0 ? (
          <p>
            {plural(
              skipped,
              '1 day with confirmed bookings will be skipped.',
              `${skipped} days with confirmed bookings will be skipped.`,
            )}
          </p>
        ) : null}
      </div>
      {rows.length > 0 ? (
        <ul
          className="grid max-h-64 gap-1 overflow-y-auto pr-1 text-sm lg:max-h-[50vh]"
          aria-label="Days in this pattern"
          data-testid="pattern-preview-days"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a list long enough to scroll (a phone shows 16 rem of it) must be reachable by keyboard (axe scrollable-region-focusable)
          tabIndex={0}
        >
          {rows.map((row) => (
            <li
              key={row.date}
              data-date={row.date}
              data-kind={row.kind}
              className="flex flex-wrap items-center justify-between gap-2 rounded-sm px-2 py-1 odd:bg-muted/60"
            >
              <span className={row.kind === 'booked' ? 'text-muted-foreground line-through' : undefined}>
                {formatLongDate(row.date)}
              </span>
              {row.kind === 'booked' ? (
                <Badge variant="outline">
                  <Lock aria-hidden />
                  Skipped: booked
                </Badge>
              ) : row.kind === 'replace' ? (
                <Badge variant="secondary">Replaces saved day</Badge>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
