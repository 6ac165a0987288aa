import { zodResolver } from '@hookform/resolvers/zod';
import { type ErasureRecord, erasureBody, erasureKindLabel } from '@shared/schemas/retention';
import { Eraser } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { FormError, FormField } from '@/components/ui/form';
import { FormCheckbox } from '@/components/ui/form-checkbox';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { showRefusal } from '@/lib/api';
import { useErasePerson } from '../api/retention-api';

export interface ErasePerson {
  id: number;
  name: string;
}

/** The shared reason rule, and the confirmation the dialog asks for before anything goes. */
const eraseForm = erasureBody.extend({
  confirmed: z.boolean().refine((value) => value, 'Confirm that you understand this cannot be undone'),
});
type EraseFormValues = z.input<typeof eraseForm>;
const resolver = zodResolver(eraseForm);

/**
 * Staff: erase a person's personal data, with the reason recorded (it must not name them) and a
 * confirmation; afterwards, what was removed and what was kept and why. Opened from outside.
 */
export function ErasePersonDialog({ person, onClose }: { person: ErasePerson | null; onClose: () => void }) {
  const [done, setDone] = useState<ErasureRecord | null>(null);
  const close = () => {
    setDone(null);
    onClose();
  };
  return (
    <Dialog open={person !== null} onOpenChange={(open) => !open && close()}>
      <DialogContent width="lg">
        {done ? (
          <ErasureDone record={done} onClose={close} />
        ) : person ? (
          <EraseForm person={person} onErased={setDone} onCancel={close} />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function EraseForm({
  person,
  onErased,
  onCancel,
}: {
  person: ErasePerson;
  onErased: (record: ErasureRecord) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const erase = useErasePerson();
  const form = useForm<EraseFormValues, unknown, z.output<typeof eraseForm>>({
    resolver,
    defaultValues: { reason: '', confirmed: false },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(({ reason }) =>
    erase.mutate(
      { userId: person.id, body: { reason } },
      {
        onSuccess: onErased,
        onError: (error) => showRefusal(form.setError, error, 'The erasure could not be made'),
      },
    ),
  );
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Erase personal data" className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Erase personal data: {person.name}</DialogTitle>
        <DialogDescription>
          Everything the portal holds about this person is removed and their account deleted. Sessions they
          delivered stay, without their name. This cannot be undone.
        </DialogDescription>
      </DialogHeader>
      <FormField
        id={`${id}-reason`}
        label="Reason"
        description="Recorded with the erasure. Do not name the person: the record keeps nothing about them."
        error={errors.reason?.message}
      >
        <Textarea rows={3} {...form.register('reason')} />
      </FormField>
      <div className="grid gap-1">
        <div className="flex items-center gap-2">
          <FormCheckbox control={form.control} name="confirmed" id={`${id}-confirmed`} />
          <Label htmlFor={`${id}-confirmed`}>I understand this cannot be undone</Label>
        </div>
        {errors.confirmed?.message ? (
          <p className="font-medium text-destructive text-sm">{errors.confirmed.message}</p>
        ) : null}
      </div>
      <FormError formState={form.formState} />
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant="destructive" disabled={erase.isPending}>
          <Eraser aria-hidden />
          {erase.isPending ? 'Erasing…' : 'Erase personal data'}
        </Button>
      </DialogFooter>
    </form>
  );
}

function ErasureDone({ record, onClose }: { record: ErasureRecord; onClose: () => void }) {
  const removed = Object.entries(record.removed).filter(([, count]) => count > 0);
  return (
    <>
      <DialogHeader>
        <DialogTitle>Personal data erased</DialogTitle>
        <DialogDescription>
          The erasure is recorded with its reason, under Settings, Retention.
        </DialogDescription>
      </DialogHeader>
      <section aria-labelledby="erasure-removed" className="grid gap-1 text-sm">
        <h3 id="erasure-removed" className="font-semibold">
          Removed
        </h3>
        <ul aria-labelledby="erasure-removed" className="list-disc pl-5">
          {removed.map(([kind, count]) => (
            <li key={kind}>
              {erasureKindLabel(kind)}: {count}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="erasure-kept" className="grid gap-1 text-sm">
        <h3 id="erasure-kept" className="font-semibold">
          Kept, and why
        </h3>
        {record.kept.length === 0 ? (
          <p>Nothing.</p>
        ) : (
          <ul aria-labelledby="erasure-kept" className="list-disc pl-5">
            {record.kept.map((kept) => (
              <li key={kept.kind}>
                {erasureKindLabel(kept.kind)}: {kept.count}, {kept.why}
              </li>
            ))}
          </ul>
        )}
      </section>
      <DialogFooter>
        <Button type="button" onClick={onClose}>
          Done
        </Button>
      </DialogFooter>
    </>
  );
}
