import { type FormEvent, useId } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import type { UserFormValues } from '../lib/users';

interface UserFormDialogProps {
  mode: 'create' | 'edit';
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The form is controlled: the parent fills it for editing and clears it after a success. */
  values: UserFormValues;
  onValuesChange: (values: UserFormValues) => void;
  pending: boolean;
  onSubmit: (values: UserFormValues) => void;
  /** areas already in use, suggested while typing */
  areaSuggestions?: string[];
}

const TEXT = {
  create: {
    title: 'Create New Facilitator',
    description: 'Add a facilitator account. They sign in with this username and password.',
    password: 'Password',
    submit: 'Create Facilitator',
    pending: 'Creating...',
  },
  edit: {
    title: 'Edit Facilitator',
    description: "Change this account's details.",
    password: 'Password (leave blank to keep current)',
    submit: 'Update Facilitator',
    pending: 'Updating...',
  },
} as const;

/** The create and edit dialogs: same fields, different wording and submit rules. */
export function UserFormDialog({
  mode,
  open,
  onOpenChange,
  values,
  onValuesChange,
  pending,
  onSubmit,
  areaSuggestions = [],
}: UserFormDialogProps) {
  const text = TEXT[mode];
  const idPrefix = useId();

  const canSubmit = values.username.trim() !== '' && (mode === 'edit' || values.password !== '') && !pending;

  const set = (name: keyof UserFormValues) => (event: { target: { value: string } }) =>
    onValuesChange({ ...values, [name]: event.target.value });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (canSubmit) onSubmit(values);
  };

  const id = (name: string) => `${idPrefix}-${name}`;

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{text.title}</DialogTitle>
          <DialogDescription>{text.description}</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4" noValidate aria-label={text.title}>
          <FormField id={id('username')} label="Username (Email)">
            <Input
              value={values.username}
              onChange={set('username')}
              autoComplete="off"
              inputMode="email"
              required
            />
          </FormField>
          <FormField id={id('password')} label={text.password}>
            <PasswordInput
              value={values.password}
              onChange={set('password')}
              autoComplete="new-password"
              required={mode === 'create'}
            />
          </FormField>
          <FormField id={id('displayName')} label="Display Name">
            <Input value={values.displayName} onChange={set('displayName')} autoComplete="off" />
          </FormField>
          <FormField id={id('email')} label="Email">
            <Input type="email" value={values.email} onChange={set('email')} autoComplete="off" />
          </FormField>
          <FormField id={id('freelancerId')} label="Freelancer ID" description="SharePoint freelancer ID">
            <Input value={values.freelancerId} onChange={set('freelancerId')} autoComplete="off" />
          </FormField>
          <FormField id={id('area')} label="Area" description="The dashboard's area filter uses this">
            <Input
              value={values.area}
              onChange={set('area')}
              autoComplete="off"
              list={areaSuggestions.length > 0 ? id('area-suggestions') : undefined}
            />
          </FormField>
          {areaSuggestions.length > 0 ? (
            <datalist id={id('area-suggestions')}>
              {areaSuggestions.map((area) => (
                <option key={area} value={area} />
              ))}
            </datalist>
          ) : null}
          <DialogFooter className="pt-2">
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={!canSubmit}>
              {pending ? text.pending : text.submit}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
