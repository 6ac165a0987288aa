import { zodResolver } from '@hookform/resolvers/zod';
import { AUTO_REMINDER_HOUR, DEFAULT_SMTP_PORTS, type SmtpSecurity } from '@shared/reminders';
import { type ReminderSettingsResponse, reminderSettingsBody } from '@shared/schemas/reminders';
import { Mail, Save } from 'lucide-react';
import { useDeferredValue, useEffect, useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { FormError, FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PasswordInput } from '@/components/ui/password-input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useReminderSettings, useSaveReminderSettings } from '../api/reminders-api';
import { type EmailFormValues, toBody } from './email-form-values';

/** Shown when a save dropped the stored password because it was typed for another server. */
export const PASSWORD_CLEARED_MESSAGE =
  'The password was cleared because the server changed: enter it again.';

const SECURITY_LABELS: Record<SmtpSecurity, string> = {
  starttls: 'STARTTLS (port 587)',
  tls: 'TLS (port 465)',
  none: 'None (port 25)',
};

function formFrom(saved: ReminderSettingsResponse): EmailFormValues {
  return {
    host: saved.host,
    port: String(saved.port),
    security: saved.security,
    username: saved.username,
    password: '',
    fromAddress: saved.fromAddress,
    autoEnabled: saved.autoEnabled,
    autoDay: String(saved.autoDay),
    autoMonth: saved.autoMonth,
  };
}

// the shared rules on the numbers the form will send; the server applies the same schema
const resolver = zodResolver(z.preprocess(toBody, reminderSettingsBody), undefined, { raw: true });

/** Staff only: the SMTP server reminders go through, and the optional monthly automatic reminder. */
export function EmailSettings() {
  const settings = useReminderSettings();
  // The form is drawn from a deferred copy of the answer: the render in which the answer arrives
  // keeps the skeleton, and the form follows in React's interruptible pass, in slices (ADR 53).
  const saved = useDeferredValue(settings.data);
  // a later read that fails (the connection back after a drop) leaves the form and what was typed
  if (settings.isError && settings.data === undefined) {
    return (
      <p role="alert" className="text-destructive">
        Email settings could not be loaded: {errorMessage(settings.error, 'please try again.')}
      </p>
    );
  }
  if (saved === undefined) {
    return (
      <div role="status">
        <span className="sr-only">Loading email settings</span>
        <Skeleton className="h-64 w-full" />
      </div>
    );
  }
  return <EmailSettingsForm saved={saved} />;
}

function EmailSettingsForm({ saved }: { saved: ReminderSettingsResponse }) {
  const save = useSaveReminderSettings();
  const id = useId();
  const form = useForm<EmailFormValues>({
    resolver,
    defaultValues: formFrom(saved),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;
  const [passwordCleared, setPasswordCleared] = useState(false);

  useEffect(() => {
    form.reset(formFrom(saved));
  }, [saved, form]);

  const onSave = form.handleSubmit((values) => {
    save.mutate(toBody(values), {
      onSuccess: (stored) => {
        form.reset(formFrom(stored));
        setPasswordCleared(stored.passwordCleared);
        toast({
          title: 'Email settings saved',
          description: stored.passwordCleared
            ? PASSWORD_CLEARED_MESSAGE
            : 'Reminders will use these settings.',
          variant: 'success',
        });
      },
      onError: (error) =>
        toast({
          title: 'Error',
          description: errorMessage(error, 'The email settings could not be saved. Please try again.'),
          variant: 'destructive',
        }),
    });
  });

  const field = (
    name: 'host' | 'port' | 'username' | 'fromAddress',
    label: string,
    extra: {
      description?: string;
      placeholder?: string;
      type?: string;
      inputMode?: 'numeric';
    } = {},
  ) => (
    <FormField
      className="content-start"
      id={`${id}-${name}`}
      label={label}
      error={errors[name]?.message}
      description={extra.description}
    >
      <Input
        type={extra.type ?? 'text'}
        inputMode={extra.inputMode}
        placeholder={extra.placeholder}
        autoComplete="off"
        spellCheck={false}
        {...form.register(name)}
      />
    </FormField>
  );

  const autoEnabled = form.watch('autoEnabled');

  return (
    <form onSubmit={onSave} noValidate aria-label="Email settings">
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Mail className="size-5" aria-hidden />
            <h2 className="text-lg">Email reminders</h2>
          </CardTitle>
          <CardDescription>
            The email server (SMTP) that availability reminders are sent through. Leave the server blank to
            send no email.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 md:grid-cols-2">
          {field('host', 'SMTP server', { placeholder: 'smtp.example.org' })}
          <div className="grid grid-cols-[minmax(0,1fr)_7rem] gap-4">
            <FormField id={`${id}-security`} label="Encryption" error={errors.security?.message}>
              <Controller
                control={form.control}
                name="security"
                render={({ field: security }) => (
                  <Select
                    value={security.value}
                    onValueChange={(value) => {
                      const mode = value as SmtpSecurity;
                      const current = Number(form.getValues('port'));
                      // move the port with the mode while it is one of the usual ones
                      if (Object.values(DEFAULT_SMTP_PORTS).includes(current) || !form.getValues('port')) {
                        form.setValue('port', String(DEFAULT_SMTP_PORTS[mode]));
                      }
                      security.onChange(mode);
                    }}
                  >
                    <SelectTrigger id={`${id}-security`} onBlur={security.onBlur}>
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {(['starttls', 'tls', 'none'] as const).map((mode) => (
                        <SelectItem key={mode} value={mode}>
                          {SECURITY_LABELS[mode]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              />
            </FormField>
            {field('port', 'SMTP port', { inputMode: 'numeric' })}
          </div>
          {field('username', 'SMTP username', { description: 'Leave blank if the server needs no sign-in.' })}
          <FormField
            className="content-start"
            id={`${id}-password`}
            label="SMTP password"
            error={errors.password?.message}
            description={
              saved.hasPassword
                ? 'An SMTP password is stored. Leave blank to keep it.'
                : 'No SMTP password is stored.'
            }
          >
            <PasswordInput
              placeholder={saved.hasPassword ? 'Leave blank to keep current' : undefined}
              autoComplete="new-password"
              {...form.register('password')}
            />
          </FormField>
          {passwordCleared ? (
            <p
              role="status"
              data-testid="password-cleared"
              className="rounded-md border border-warning/50 bg-warning/10 p-3 text-sm md:col-span-2"
            >
              {PASSWORD_CLEARED_MESSAGE} A stored password is only ever sent to the server, port, encryption
              and username it was entered for.
            </p>
          ) : null}
          {field('fromAddress', 'Sender address', { type: 'email', placeholder: 'portal@example.org' })}
          <div className="grid content-start gap-1.5">
            <p className="font-medium text-sm">Portal address</p>
            {saved.portalUrl ? (
              <p className="break-all text-sm" data-testid="portal-address">
                {saved.portalUrl}
              </p>
            ) : (
              <p className="text-destructive text-sm" data-testid="portal-address">
                Not set: reminders cannot be sent until the portal&rsquo;s PUBLIC_URL is set.
              </p>
            )}
            <p className="text-muted-foreground text-sm">
              Reminders link to the calendar here. It is the portal&rsquo;s PUBLIC_URL, set where the portal
              is installed, not on this page.
            </p>
          </div>

          <fieldset className="grid gap-4 rounded-md border p-4 md:col-span-2">
            <legend className="px-1 font-medium text-sm">Automatic reminder</legend>
            <Controller
              control={form.control}
              name="autoEnabled"
              render={({ field: enabled }) => (
                <div className="flex items-start gap-3">
                  <Checkbox
                    id={`${id}-autoEnabled`}
                    checked={enabled.value}
                    onCheckedChange={(value) => enabled.onChange(value === true)}
                    aria-describedby={errors.autoEnabled ? `${id}-autoEnabled-message` : undefined}
                  />
                  <div className="grid gap-1">
                    <Label htmlFor={`${id}-autoEnabled`}>Send a reminder automatically every month</Label>
                    <p className="text-muted-foreground text-sm">
                      On the chosen day, from {String(AUTO_REMINDER_HOUR).padStart(2, '0')}:00, everyone who
                      is partial or missing for the chosen month gets one email.
                    </p>
                    {errors.autoEnabled ? (
                      <p id={`${id}-autoEnabled-message`} className="font-medium text-destructive text-sm">
                        {errors.autoEnabled.message}
                      </p>
                    ) : null}
                  </div>
                </div>
              )}
            />
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField id={`${id}-autoDay`} label="Day of the month" error={errors.autoDay?.message}>
                <Controller
                  control={form.control}
                  name="autoDay"
                  render={({ field: day }) => (
                    <Select value={day.value} onValueChange={day.onChange} disabled={!autoEnabled}>
                      <SelectTrigger id={`${id}-autoDay`} onBlur={day.onBlur}>
                        <SelectValue />
                      </SelectTrigger>
                      <SelectContent>
                        {Array.from({ length: 28 }, (_, i) => String(i + 1)).map((value) => (
                          <SelectItem key={value} value={value}>
                            {value}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                  )}
                />
              </FormField>
              <FormField id={`${id}-autoMonth`} label="Remind about" error={errors.autoMonth?.message}>
                <Controller
                  control={form.control}
                  name="autoMonth"
                  render={({ field: which }) => (
                    <Select value={which.value} onValueChange={which.onChange} disabled={!autoEnabled}>
                      <SelectTrigger id={`${id}-autoMonth`} onBlur={which.onBlur}>
                        <SelectValue />
                      </SelectTrigger>
                      <SelectContent>
                        <SelectItem value="next">The next month</SelectItem>
                        <SelectItem value="current">The same month</SelectItem>
                      </SelectContent>
                    </Select>
                  )}
                />
              </FormField>
            </div>
            <p className="text-muted-foreground text-sm" data-testid="next-automatic">
              {saved.nextAutomatic
                ? `Next automatic reminder: ${formatDay(saved.nextAutomatic.date)}, about ${saved.nextAutomatic.label}.`
                : 'The automatic reminder is off.'}
            </p>
          </fieldset>

          <FormError formState={form.formState} className="md:col-span-2" />
          <div className="flex justify-end md:col-span-2">
            <Button type="submit" disabled={form.formState.isSubmitting || save.isPending}>
              <Save aria-hidden />
              {save.isPending ? 'Saving...' : 'Save email settings'}
            </Button>
          </div>
        </CardContent>
      </Card>
    </form>
  );
}

function formatDay(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
