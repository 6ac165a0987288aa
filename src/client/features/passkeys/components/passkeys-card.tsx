import { zodResolver } from '@hookform/resolvers/zod';
import { type PasskeyNameForm, type PasskeySummary, passkeyNameForm } from '@shared/schemas/passkeys';
import { Fingerprint, Pencil, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import {
  browserHasPasskeys,
  useAddPasskey,
  usePasskeyStatus,
  usePasskeys,
  useRemovePasskey,
  useRenamePasskey,
} from '../api/passkeys-api';
import { passkeyErrorMessage } from '../lib/errors';

const day = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { dateStyle: 'medium' });

/**
 * The settings card of one's own passkeys: each with its name, when it was added and last used, and
 * Remove; a form to add one (name it, then the browser or phone makes it).
 */
export function PasskeysCard() {
  const status = usePasskeyStatus();
  const list = usePasskeys();
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const [removing, setRemoving] = useState<PasskeySummary | null>(null);
  const [renaming, setRenaming] = useState<number | null>(null);
  const { register, handleSubmit, formState, reset, setError } = useForm<PasskeyNameForm>({
    resolver: zodResolver(passkeyNameForm),
    defaultValues: { name: '' },
  });
  const offered = status.data?.enabled === true;
  const supported = browserHasPasskeys();

  function onAdd(values: PasskeyNameForm) {
    add.mutate(
      { name: values.name },
      {
        onSuccess: (added) => {
          reset({ name: '' });
          toast({
            title: 'Passkey added',
            description: `"${added.name}" can now sign you in.`,
            variant: 'success',
          });
        },
        onError: (error) =>
          setError('root', { message: passkeyErrorMessage(error, 'The passkey could not be added.') }),
      },
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Passkeys</h2>
        </CardTitle>
        <CardDescription>
          Sign in with your phone's or computer's own unlock (fingerprint, face or PIN) instead of a password.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        {list.error ? (
          <p role="alert" className="text-destructive text-sm">
            {errorMessage(list.error, 'Your passkeys could not be read.')}
          </p>
        ) : list.data && list.data.length > 0 ? (
          <ul className="grid gap-2" aria-label="Your passkeys">
            {list.data.map((passkey) => (
              <li key={passkey.id} className="grid gap-3 rounded-md border px-3 py-2">
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <div className="grid gap-0.5">
                    <span className="font-medium">{passkey.name}</span>
                    <span className="text-muted-foreground text-sm">
                      Added {day(passkey.createdAt)} ·{' '}
                      {passkey.lastUsedAt ? `last used ${day(passkey.lastUsedAt)}` : 'not used yet'}
                    </span>
                  </div>
                  <div className="flex flex-wrap gap-2">
                    <Button
                      variant="outline"
                      size="sm"
                      onClick={() => setRenaming(passkey.id)}
                      aria-label={`Rename ${passkey.name}`}
                      aria-expanded={renaming === passkey.id}
                    >
                      <Pencil aria-hidden />
                      Rename
                    </Button>
                    <Button
                      variant="outline"
                      size="sm"
                      onClick={() => setRemoving(passkey)}
                      aria-label={`Remove ${passkey.name}`}
                    >
                      <Trash2 aria-hidden />
                      Remove
                    </Button>
                  </div>
                </div>
                {renaming === passkey.id ? (
                  <RenameForm passkey={passkey} onDone={() => setRenaming(null)} />
                ) : null}
              </li>
            ))}
          </ul>
        ) : list.data ? (
          <p className="text-muted-foreground text-sm">You have no passkeys yet.</p>
        ) : null}
        {!offered ? (
          status.data ? (
            <p className="text-muted-foreground text-sm">
              Passkeys are not available on this portal yet: ask your administrator.
            </p>
          ) : null
        ) : !supported ? (
          <p className="text-muted-foreground text-sm">This browser cannot make passkeys.</p>
        ) : (
          <form onSubmit={handleSubmit(onAdd)} noValidate className="grid gap-3" aria-label="Add a passkey">
            <FormField
              id="passkey-name"
              label="Name for the new passkey"
              description="So you can tell your passkeys apart, for example “My phone”."
              error={formState.errors.name?.message}
            >
              <Input autoComplete="off" maxLength={60} {...register('name')} />
            </FormField>
            {formState.errors.root ? (
              <p role="alert" className="text-destructive text-sm">
                {formState.errors.root.message}
              </p>
            ) : null}
            <div>
              <Button type="submit" disabled={add.isPending}>
                <Fingerprint aria-hidden />
                {add.isPending ? 'Waiting for your device...' : 'Add a passkey'}
              </Button>
            </div>
          </form>
        )}
      </CardContent>
      <ConfirmDialog
        open={removing !== null}
        title="Remove this passkey?"
        description={`"${removing?.name ?? ''}" will no longer sign you in. You can add it again later.`}
        cancelLabel="Keep it"
        confirmLabel="Remove"
        pendingLabel="Removing..."
        pending={remove.isPending}
        destructive
        onCancel={() => setRemoving(null)}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: () => {
              setRemoving(null);
              toast({ title: 'Passkey removed' });
            },
            onError: (error) =>
              toast({
                title: 'The passkey could not be removed',
                description: errorMessage(error, 'Try again.'),
                variant: 'destructive',
              }),
          })
        }
      />
    </Card>
  );
}

/** A passkey's new name, saved with Save; Cancel leaves the name as it was. */
function RenameForm({ passkey, onDone }: { passkey: PasskeySummary; onDone: () => void }) {
  const rename = useRenamePasskey();
  const { register, handleSubmit, formState, setError, setFocus } = useForm<PasskeyNameForm>({
    resolver: zodResolver(passkeyNameForm),
    defaultValues: { name: passkey.name },
  });
  // the field opens with the focus in it, as the Rename button promised
  useEffect(() => setFocus('name', { shouldSelect: true }), [setFocus]);
  const fieldId = `passkey-rename-${passkey.id}`;
  return (
    <form
      noValidate
      aria-label={`Rename ${passkey.name}`}
      className="grid gap-3"
      onSubmit={handleSubmit((values) =>
        rename.mutate(
          { id: passkey.id, name: values.name },
          {
            onSuccess: (saved) => {
              toast({ title: 'Passkey renamed', description: `It is now called "${saved.name}".` });
              onDone();
            },
            onError: (error) =>
              setError('root', { message: errorMessage(error, 'The passkey could not be renamed.') }),
          },
        ),
      )}
    >
      <FormField id={fieldId} label="New name" error={formState.errors.name?.message}>
        <Input autoComplete="off" maxLength={60} {...register('name')} />
      </FormField>
      {formState.errors.root ? (
        <p role="alert" className="text-destructive text-sm">
          {formState.errors.root.message}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={rename.isPending}>
          {rename.isPending ? 'Saving...' : 'Save name'}
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
