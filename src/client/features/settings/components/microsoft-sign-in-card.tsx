import { zodResolver } from '@hookform/resolvers/zod';
import {
  type MicrosoftSignInSettings,
  type MicrosoftSignInSettingsBody,
  type MicrosoftSignInTestResult,
  microsoftSignInSettingsBody,
} from '@shared/schemas/microsoft-sign-in';
import { CircleAlert, CircleCheck, Info, KeyRound, LoaderCircle, LogIn, Plug, Save } from 'lucide-react';
import { useDeferredValue, useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { CertificateFields } from '@/components/certificate-fields';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { FormError, FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PasswordInput } from '@/components/ui/password-input';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { errorFields, errorMessage } from '@/lib/api';
import {
  linkMyAccount,
  useMicrosoftSignInSettings,
  useSaveMicrosoftSignInSettings,
  useTestMicrosoftSignIn,
} from '../api/microsoft-sign-in-api';

/** The body as typed; the form always holds every field. */
type SignInFormValues = MicrosoftSignInSettingsBody;

function formFrom(saved: MicrosoftSignInSettings): SignInFormValues {
  return {
    tenantId: saved.tenantId,
    clientId: saved.clientId,
    clientSecret: '',
    clientCertificate: '',
    clientCertificateKey: '',
    removeClientCertificate: false,
    staffRole: saved.staffRole,
    staffPasswordSignIn: saved.staffPasswordSignIn,
    createStaffFromRole: saved.createStaffFromRole,
    facilitatorSignIn: saved.facilitatorSignIn,
  };
}

// the shared rules; values are sent as typed and the server applies the same schema
const rules = zodResolver(microsoftSignInSettingsBody, undefined, { raw: true });

/** What a save removed because the tenant or client changed, or null. */
function clearedText(stored: MicrosoftSignInSettings): string | null {
  const what = [
    stored.clientSecretCleared ? 'client secret' : '',
    stored.clientCertificateCleared ? 'certificate' : '',
  ].filter(Boolean);
  if (what.length === 0) return null;
  return `The ${what.join(' and ')} ${what.length > 1 ? 'were' : 'was'} cleared because the tenant or client changed: enter ${what.length > 1 ? 'them' : 'it'} again.`;
}

type TestState = { kind: 'idle' } | { kind: 'testing' } | ({ kind: 'done' } & MicrosoftSignInTestResult);

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid gap-0.5 sm:grid-cols-[12rem_1fr] sm:gap-3">
      <dt className="text-muted-foreground text-sm">{label}</dt>
      <dd className="break-all font-mono text-sm">{value || '—'}</dd>
    </div>
  );
}

/**
 * Sign in with Microsoft on the settings page: the directory, application, secret and staff app role
 * (read-only where the server's environment sets them; the secret is write-only), a look-up of the
 * directory at Microsoft, linking your own account, and the switch for staff passwords.
 */
export function MicrosoftSignInCard({ currentUserId }: { currentUserId: number | undefined }) {
  const settings = useMicrosoftSignInSettings();
  // The form is drawn from a deferred copy of the answer: the render in which the answer arrives
  // keeps the skeleton, and the form follows in React's interruptible pass, in slices (ADR 53).
  const saved = useDeferredValue(settings.data);

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRound className="size-5" aria-hidden />
          <h2 className="text-lg">Sign in with Microsoft</h2>
        </CardTitle>
        <CardDescription>
          Staff sign in with their Microsoft 365 work account, under your organisation's own multi-factor and
          conditional-access rules.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        {/* only when nothing was read: a later read that fails leaves the form and what was typed */}
        {!settings.isPending && !settings.data ? (
          <p role="alert" className="text-destructive text-sm">
            {errorMessage(settings.error, 'The sign-in settings could not be loaded')}
          </p>
        ) : saved === undefined ? (
          <Skeleton className="h-24 w-full" />
        ) : (
          <SignInForm saved={saved} currentUserId={currentUserId} />
        )}
      </CardContent>
    </Card>
  );
}

function SignInForm({
  saved,
  currentUserId,
}: {
  saved: MicrosoftSignInSettings;
  currentUserId: number | undefined;
}) {
  const save = useSaveMicrosoftSignInSettings();
  const test = useTestMicrosoftSignIn();
  const [testState, setTestState] = useState<TestState>({ kind: 'idle' });
  const [formError, setFormError] = useState<string | null>(null);
  const [clearedNote, setClearedNote] = useState<string | null>(null);
  const [linking, setLinking] = useState(false);
  const checkboxId = useId();
  const createId = useId();
  const facilitatorsId = useId();
  const errorId = useId();
  const fromEnvironment = saved.connectionSource === 'environment';
  const roleFromEnvironment = saved.staffRoleSource === 'environment';

  const form = useForm<SignInFormValues>({
    // what the environment sets is shown as it is and never checked or sent from here
    resolver: (values, context, options) =>
      rules(
        {
          ...values,
          ...(fromEnvironment
            ? {
                tenantId: undefined,
                clientId: undefined,
                clientSecret: undefined,
                clientCertificate: undefined,
                clientCertificateKey: undefined,
                removeClientCertificate: undefined,
              }
            : {}),
          ...(roleFromEnvironment ? { staffRole: undefined } : {}),
        },
        context,
        options,
      ),
    defaultValues: formFrom(saved),
    mode: 'onSubmit',
  });
  const { errors } = form.formState;
  useEffect(() => {
    form.reset(formFrom(saved));
  }, [saved, form]);
  const allowPasswords = form.watch('staffPasswordSignIn');
  const createStaff = form.watch('createStaffFromRole') ?? false;
  const letFacilitators = form.watch('facilitatorSignIn') ?? false;

  const onSave = form.handleSubmit((values) => {
    setFormError(null);
    // what the environment sets is not sent: the server refuses changes to it
    const body = {
      staffPasswordSignIn: values.staffPasswordSignIn,
      createStaffFromRole: values.createStaffFromRole,
      facilitatorSignIn: values.facilitatorSignIn,
      ...(fromEnvironment
        ? {}
        : {
            tenantId: values.tenantId,
            clientId: values.clientId,
            clientSecret: values.clientSecret,
            clientCertificate: values.clientCertificate,
            clientCertificateKey: values.clientCertificateKey,
            removeClientCertificate: values.removeClientCertificate,
          }),
      ...(roleFromEnvironment ? {} : { staffRole: values.staffRole }),
    };
    save.mutate(body, {
      onSuccess: (stored) => {
        const cleared = clearedText(stored);
        setClearedNote(cleared);
        toast({
          title: 'Sign-in settings saved',
          description: cleared ?? undefined,
          variant: 'success',
        });
      },
      onError: (error) => {
        const fields = errorFields(error, 'The sign-in settings could not be saved');
        for (const [name, message] of Object.entries(fields)) {
          if (name in values) form.setError(name as keyof SignInFormValues, { message });
        }
        setFormError(errorMessage(error, 'The sign-in settings could not be saved'));
      },
    });
  });

  const onTest = () => {
    const tenantId = (form.getValues('tenantId') ?? '').trim();
    if (!tenantId) {
      form.setError('tenantId', { message: 'Enter the directory (tenant) ID' });
      return;
    }
    setTestState({ kind: 'testing' });
    test.mutate(
      { tenantId },
      {
        onSuccess: (result) => setTestState({ kind: 'done', ...result }),
        onError: (error) =>
          setTestState({
            kind: 'done',
            success: false,
            message: errorMessage(error, 'The sign-in settings could not be tested.'),
          }),
      },
    );
  };

  async function onLink() {
    if (!currentUserId) return;
    setLinking(true);
    setFormError(null);
    try {
      await linkMyAccount(currentUserId);
    } catch (caught) {
      setFormError(errorMessage(caught, 'Could not start linking your account'));
      setLinking(false);
    }
  }

  const environmentNote = (variable: string) => `Set by ${variable} on the server.`;

  return (
    <form onSubmit={onSave} noValidate className="grid gap-5" aria-label="Sign in with Microsoft settings">
      {fromEnvironment ? (
        <p className="flex items-start gap-2 rounded-md bg-muted p-3 text-muted-foreground text-sm">
          <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
          The directory, application and client secret come from the server's environment (ENTRA_TENANT_ID,
          ENTRA_CLIENT_ID, ENTRA_CLIENT_SECRET), which takes precedence over this page.
        </p>
      ) : null}
      {!saved.publicUrlSet ? (
        <p className="flex items-start gap-2 rounded-md border border-warning/50 bg-warning/10 p-3 text-sm">
          <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
          Set PUBLIC_URL on the server: the address Microsoft sends people back to is built from it.
        </p>
      ) : null}
      <div className="grid gap-4 md:grid-cols-2">
        <FormField
          className="content-start"
          id="microsoft-tenantId"
          label="Directory (tenant) ID"
          error={errors.tenantId?.message}
          description={
            fromEnvironment
              ? environmentNote('ENTRA_TENANT_ID')
              : 'A GUID, or a verified domain of your directory.'
          }
        >
          <Input
            autoComplete="off"
            spellCheck={false}
            readOnly={fromEnvironment}
            placeholder="00000000-0000-0000-0000-000000000000"
            {...form.register('tenantId')}
          />
        </FormField>
        <FormField
          className="content-start"
          id="microsoft-clientId"
          label="Application (client) ID"
          error={errors.clientId?.message}
          description={fromEnvironment ? environmentNote('ENTRA_CLIENT_ID') : 'From the app registration.'}
        >
          <Input
            autoComplete="off"
            spellCheck={false}
            readOnly={fromEnvironment}
            placeholder="00000000-0000-0000-0000-000000000000"
            {...form.register('clientId')}
          />
        </FormField>
        <FormField
          className="content-start"
          id="microsoft-clientSecret"
          label="Client secret"
          error={errors.clientSecret?.message}
          description={
            fromEnvironment
              ? environmentNote('ENTRA_CLIENT_SECRET')
              : saved.clientSecretUnreadable
                ? 'The stored client secret could not be read (was APP_SECRET changed?). Enter it again.'
                : saved.hasClientSecret
                  ? 'A client secret is stored. Leave blank to keep it.'
                  : 'No client secret is stored.'
          }
        >
          <PasswordInput
            autoComplete="new-password"
            readOnly={fromEnvironment}
            placeholder={saved.hasClientSecret ? 'Leave blank to keep current' : undefined}
            {...form.register('clientSecret')}
          />
        </FormField>
        {fromEnvironment ? null : (
          <CertificateFields
            data-testid="microsoft-certificate-fields"
            idPrefix="microsoft"
            stored={saved.clientCertificate}
            hasStored={saved.hasClientCertificate}
            refusedBy="Microsoft sign-in"
            summaryTestIdPrefix="microsoft-certificate"
            labels={{ certificate: 'Client certificate (PEM)', key: 'Certificate private key (PEM)' }}
            certificateDescription={
              saved.clientCertificateUnreadable
                ? 'The stored private key could not be read (was APP_SECRET changed?). Enter the certificate and key again.'
                : saved.hasClientCertificate
                  ? 'A certificate is stored and used instead of the client secret. Leave both blank to keep it; paste a new pair to replace it.'
                  : 'Instead of a client secret: the certificate uploaded to the app registration (Certificates & secrets). Used in preference to the secret.'
            }
            errors={{
              certificate: errors.clientCertificate?.message,
              key: errors.clientCertificateKey?.message,
            }}
            fields={{
              certificate: form.register('clientCertificate'),
              key: form.register('clientCertificateKey'),
              remove: form.register('removeClientCertificate'),
            }}
          />
        )}
        <FormField
          className="content-start"
          id="microsoft-staffRole"
          label="Staff app role"
          error={errors.staffRole?.message}
          description={
            roleFromEnvironment
              ? environmentNote('ENTRA_STAFF_ROLE')
              : 'The app role value staff must hold, for example Portal.Staff. Blank: invitations alone decide.'
          }
        >
          <Input
            autoComplete="off"
            spellCheck={false}
            readOnly={roleFromEnvironment}
            {...form.register('staffRole')}
          />
        </FormField>
        {clearedNote ? (
          <p
            role="status"
            data-testid="microsoft-secret-cleared"
            className="rounded-md border border-warning/50 bg-warning/10 p-3 text-sm md:col-span-2"
          >
            {clearedNote} A stored secret or certificate is only ever used with the directory and application
            it was entered for.
          </p>
        ) : null}
      </div>

      <dl className="grid gap-2">
        <Detail label="Redirect URI" value={saved.redirectUri} />
        <Detail label="Status" value={saved.configured ? 'Configured' : 'Not configured'} />
        <Detail label="Staff linked to Microsoft" value={String(saved.linkedStaff)} />
      </dl>

      <div className="grid gap-2">
        <div>
          <Button type="button" variant="outline" onClick={onTest} disabled={test.isPending}>
            <Plug aria-hidden />
            {test.isPending ? 'Testing...' : 'Test sign-in settings'}
          </Button>
        </div>
        <div role="status" aria-live="polite" data-testid="microsoft-test-status" className="text-sm">
          {testState.kind === 'testing' ? (
            <p className="flex items-center gap-2">
              <LoaderCircle className="size-4 animate-spin text-primary" aria-hidden />
              Looking up the directory at Microsoft...
            </p>
          ) : null}
          {testState.kind === 'done' ? (
            <p className="flex items-start gap-2">
              {testState.success ? (
                <CircleCheck className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
              ) : (
                <CircleAlert className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
              )}
              <span className="break-words">{testState.message}</span>
            </p>
          ) : null}
        </div>
      </div>

      {saved.configured && !saved.youAreLinked ? (
        <div className="flex flex-wrap items-center gap-3">
          <Button type="button" variant="outline" onClick={onLink} disabled={linking || !currentUserId}>
            <LogIn aria-hidden />
            {linking ? 'Opening Microsoft...' : 'Link my Microsoft account'}
          </Button>
          <span className="text-muted-foreground text-sm">Your account is not linked yet.</span>
        </div>
      ) : null}

      <div className="grid gap-2">
        <div className="flex items-start gap-3">
          <Checkbox
            id={createId}
            checked={createStaff}
            aria-describedby={errors.createStaffFromRole ? `${createId}-message` : undefined}
            onCheckedChange={(checked) =>
              form.setValue('createStaffFromRole', checked === true, { shouldDirty: true })
            }
          />
          <div className="grid gap-1">
            <Label htmlFor={createId}>Create staff accounts for people with the app role</Label>
            <p className="text-muted-foreground text-sm">
              Someone who holds the staff app role gets a staff account at their first Microsoft sign-in,
              without an invitation. Accounts are matched by their Microsoft identity, never by email: an
              existing account with the same email address is not used.
            </p>
            {errors.createStaffFromRole?.message ? (
              <p id={`${createId}-message`} className="font-medium text-destructive text-sm">
                {errors.createStaffFromRole.message}
              </p>
            ) : null}
          </div>
        </div>
        <div className="flex items-start gap-3">
          <Checkbox
            id={checkboxId}
            checked={allowPasswords}
            disabled={!saved.configured}
            aria-describedby={formError ? errorId : undefined}
            onCheckedChange={(checked) =>
              form.setValue('staffPasswordSignIn', checked === true, { shouldDirty: true })
            }
          />
          <div className="grid gap-1">
            <Label htmlFor={checkboxId}>Staff may also sign in with a password</Label>
            <p className="text-muted-foreground text-sm">
              Turn this off once Microsoft sign-in works. Your own account must be linked first, so somebody
              can always get in. Facilitators keep their passwords.
            </p>
          </div>
        </div>
        <div className="flex items-start gap-3">
          <Checkbox
            id={facilitatorsId}
            checked={letFacilitators}
            onCheckedChange={(checked) =>
              form.setValue('facilitatorSignIn', checked === true, { shouldDirty: true })
            }
          />
          <div className="grid gap-1">
            <Label htmlFor={facilitatorsId}>Let facilitators sign in with Microsoft</Label>
            <p className="text-muted-foreground text-sm">
              For facilitators you have invited as guests in your directory. Each one needs an invitation link
              from the Users page; they always keep their password, and they sign in as facilitators whatever
              roles their Microsoft account holds.
            </p>
          </div>
        </div>
        {formError ? (
          <p id={errorId} role="alert" className="text-destructive text-sm">
            {formError}
          </p>
        ) : null}
      </div>
      <FormError formState={form.formState} />
      <div>
        <Button type="submit" disabled={form.formState.isSubmitting || save.isPending}>
          <Save aria-hidden />
          {save.isPending ? 'Saving...' : 'Save sign-in settings'}
        </Button>
      </div>
    </form>
  );
}
