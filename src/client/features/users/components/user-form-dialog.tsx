import type { UserFormValues } from '@shared/schemas/users';
import { useId } from 'react';
import { type UseFormReturn, useWatch } from 'react-hook-form';
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
import { FormCheckbox } from '@/components/ui/form-checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PasswordInput } from '@/components/ui/password-input';

interface UserFormDialogProps {
  mode: 'create' | 'edit';
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The parent's form (its rules: `createUserForm` or `editUserForm`): it fills it for editing and clears it after a success. */
  form: UseFormReturn<UserFormValues>;
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
  form,
  pending,
  onSubmit,
  areaSuggestions = [],
}: UserFormDialogProps) {
  const text = TEXT[mode];
  const idPrefix = useId();

  const [username, password, invite] = useWatch({
    control: form.control,
    name: ['username', 'password', 'sendInvitation'],
  });
  const inviting = mode === 'create' && invite;
  // the button waits for what is required; the rules' messages show on submit
  const canSubmit = username.trim() !== '' && (mode === 'edit' || inviting || password !== '') && !pending;
  const errors = form.formState.errors;

  const id = (name: string) => `${idPrefix}-${name}`;

  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{text.title}</DialogTitle>
          <DialogDescription>{text.description}</DialogDescription>
        </DialogHeader>
        <form
          onSubmit={form.handleSubmit(onSubmit)}
          className="grid gap-4"
          noValidate
          aria-label={text.title}
        >
          <FormField id={id('username')} error={errors.username?.message} label="Username (Email)">
            <Input {...form.register('username')} autoComplete="off" inputMode="email" required />
          </FormField>
          {mode === 'create' ? (
            <div className="flex items-start gap-3">
              <FormCheckbox control={form.control} name="sendInvitation" id={id('sendInvitation')} />
              <Label
                plain
                htmlFor={id('sendInvitation')}
                className="flex items-center gap-2 font-medium leading-snug"
              >
                Send an invitation instead of setting a password
                <span className="block font-normal text-muted-foreground text-sm">
                  They get an email with a link, valid for 7 days, to choose their own password.
                </span>
              </Label>
            </div>
          ) : null}
          {inviting ? null : (
            <FormField id={id('password')} error={errors.password?.message} label={text.password}>
              <PasswordInput
                {...form.register('password')}
                autoComplete="new-password"
                required={mode === 'create'}
              />
            </FormField>
          )}
          <FormField id={id('displayName')} error={errors.displayName?.message} label="Display Name">
            <Input {...form.register('displayName')} autoComplete="off" />
          </FormField>
          <FormField
            id={id('email')}
            error={errors.email?.message}
            label={inviting ? 'Email (the invitation goes here)' : 'Email'}
          >
            <Input type="email" {...form.register('email')} autoComplete="off" />
          </FormField>
          <FormField
            id={id('freelancerId')}
            error={errors.freelancerId?.message}
            label="Freelancer ID"
            description="SharePoint freelancer ID"
          >
            <Input {...form.register('freelancerId')} autoComplete="off" />
          </FormField>
          <FormField
            id={id('area')}
            error={errors.area?.message}
            label="Area"
            description="The dashboard's area filter uses this"
          >
            <Input
              {...form.register('area')}
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
