import { zodResolver } from '@hookform/resolvers/zod';
import { type SettingsResponse, settingsBody } from '@shared/schemas/settings';
import type { ColumnMapping, ListKind } from '@shared/schemas/sharepoint-columns';
import { Info, Plug, Save } from 'lucide-react';
import { useEffect, useState } from 'react';
import { type FieldErrors, useForm } from 'react-hook-form';
import { CertificateFields } from '@/components/certificate-fields';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormError, FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { toast } from '@/components/ui/use-toast';
import { errorFields, errorMessage } from '@/lib/api';
import { useCheckColumns, useSaveSettings, useTestConnection } from '../api/settings-api';
import { type ColumnCheckState, ColumnMappingPanel } from './column-mapping';
import { type ConnectionState, ConnectionStatus, SUCCESS_TEXT } from './connection-status';

/** Every field is a string while editing; secrets start blank (write-only). */
export interface SettingsFormValues {
  siteUrl: string;
  availabilityListName: string;
  bookingsListName: string;
  facilitatorListName: string;
  schoolsListName: string;
  tenantId: string;
  clientId: string;
  clientSecret: string;
  username: string;
  password: string;
  clientCertificate: string;
  clientCertificateKey: string;
  removeClientCertificate: boolean;
}

function formFrom(saved: SettingsResponse): SettingsFormValues {
  return {
    siteUrl: saved.siteUrl,
    availabilityListName: saved.availabilityListName,
    bookingsListName: saved.bookingsListName,
    facilitatorListName: saved.facilitatorListName,
    schoolsListName: saved.schoolsListName,
    tenantId: saved.tenantId,
    clientId: saved.clientId,
    clientSecret: '',
    username: saved.username,
    password: '',
    clientCertificate: '',
    clientCertificateKey: '',
    removeClientCertificate: false,
  };
}

// The shared rules; values are sent as typed (raw), the server applies the same schema. The form
// always holds every field, so the optional ones are required here; the column mapping is held
// beside the form and added when it is sent.
const resolver = zodResolver(settingsBody.omit({ columnMapping: true }).required(), undefined, { raw: true });

/** What a save says when it dropped stored secrets typed for another tenant, client, site or account. */
export function clearedSecretsMessage(stored: SettingsResponse): string | null {
  if (stored.clientCertificateCleared)
    return 'The certificate was cleared because the tenant, client or site changed: enter it again.';
  if (stored.clientSecretCleared && stored.passwordCleared)
    return 'The client secret and password were cleared because the tenant, client or site changed: enter them again.';
  if (stored.clientSecretCleared)
    return 'The client secret was cleared because the tenant, client or site changed: enter it again.';
  if (stored.passwordCleared)
    return 'The password was cleared because the tenant, client, site or username changed: enter it again.';
  return null;
}

type TextField = Exclude<
  keyof SettingsFormValues,
  'clientSecret' | 'password' | 'clientCertificate' | 'clientCertificateKey' | 'removeClientCertificate'
>;

export function SettingsForm({ saved }: { saved: SettingsResponse }) {
  const save = useSaveSettings();
  const test = useTestConnection();
  const [connection, setConnection] = useState<ConnectionState>({ kind: 'idle' });
  const [clearedNote, setClearedNote] = useState<string | null>(null);
  const checkColumns = useCheckColumns();
  const [columns, setColumns] = useState<ColumnCheckState>({ kind: 'idle' });
  // staff's corrections to the automatic column matching, saved with the settings
  const [mapping, setMapping] = useState<ColumnMapping>(saved.columnMapping);

  const form = useForm<SettingsFormValues>({
    resolver,
    defaultValues: formFrom(saved),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;

  // a save answers with the stored settings: show them, secrets blank again
  useEffect(() => {
    form.reset(formFrom(saved));
    setMapping(saved.columnMapping);
  }, [saved, form]);

  const runColumnCheck = (values: SettingsFormValues, withMapping: ColumnMapping) => {
    setColumns({ kind: 'checking' });
    checkColumns.mutate(
      { ...values, columnMapping: withMapping },
      {
        onSuccess: (result) => setColumns({ kind: 'done', result }),
        onError: (error) =>
          setColumns({ kind: 'error', message: errorMessage(error, 'Could not read the columns.') }),
      },
    );
  };
  // the column check reports a form that could not be checked in its own card, where it was asked for
  const columnsNotChecked = (invalid: FieldErrors<SettingsFormValues>) => {
    if (invalid.root?.message) setColumns({ kind: 'error', message: invalid.root.message });
  };
  const onCheckColumns = form.handleSubmit((values) => runColumnCheck(values, mapping), columnsNotChecked);
  const onChooseColumn = (list: ListKind, field: string, column: string) => {
    const next: ColumnMapping = { ...mapping, [list]: { ...mapping[list], [field]: column } };
    setMapping(next);
    void form.handleSubmit((values) => runColumnCheck(values, next), columnsNotChecked)();
  };

  // the connection test of the settings as typed, shown in the status panel
  const runTest = (values: SettingsFormValues, then?: (result: ConnectionState) => void) => {
    setConnection({ kind: 'testing' });
    const done = (state: ConnectionState) => {
      setConnection(state);
      then?.(state);
    };
    test.mutate(
      { ...values, columnMapping: mapping },
      {
        onSuccess: (result) =>
          done(
            result.success
              ? { kind: 'success', detail: result.message || SUCCESS_TEXT }
              : { kind: 'error', message: result.message || 'Connection test failed' },
          ),
        onError: (error) =>
          done({ kind: 'error', message: errorMessage(error, 'Failed to connect to SharePoint.') }),
      },
    );
  };

  const onSave = form.handleSubmit((values) => {
    save.mutate(
      { ...values, columnMapping: mapping },
      {
        onSuccess: (stored) => {
          // secrets blank again; the flags now say what is stored
          form.reset(formFrom(stored));
          const cleared = clearedSecretsMessage(stored);
          setClearedNote(cleared);
          if (cleared) {
            toast({ title: 'Settings saved', description: cleared, variant: 'success' });
            return;
          }
          // saved settings that name a list the site lacks (or cannot sign in) must not read as done:
          // the saved settings are tested at once (blank secrets are the ones just stored)
          runTest(values, (state) =>
            toast(
              state.kind === 'success'
                ? {
                    title: 'Settings saved',
                    description: 'Your SharePoint settings have been saved successfully.',
                    variant: 'success',
                  }
                : {
                    title: 'Settings saved, but the connection test failed',
                    description: state.kind === 'error' ? state.message : undefined,
                    variant: 'destructive',
                  },
            ),
          );
        },
        onError: (error) => {
          // a refused certificate or key is named at its field
          for (const [field, message] of Object.entries(errorFields(error, ''))) {
            if (field === 'clientCertificate' || field === 'clientCertificateKey')
              form.setError(field, { type: 'server', message });
          }
          toast({
            title: 'Error',
            description: errorMessage(error, 'Failed to save settings. Please try again.'),
            variant: 'destructive',
          });
        },
      },
    );
  });

  const onTest = form.handleSubmit((values) => runTest(values));

  const text = (
    name: TextField,
    label: string,
    options: { description?: string; placeholder?: string; type?: string } = {},
  ) => (
    <FormField
      className="content-start"
      id={`settings-${name}`}
      label={label}
      error={errors[name]?.message}
      description={options.description}
    >
      <Input
        type={options.type ?? 'text'}
        placeholder={options.placeholder}
        autoComplete="off"
        spellCheck={false}
        {...form.register(name)}
      />
    </FormField>
  );

  const secret = (name: 'clientSecret' | 'password', label: string, stored: boolean, what: string) => (
    <FormField
      className="content-start"
      id={`settings-${name}`}
      label={label}
      error={errors[name]?.message}
      description={stored ? `A ${what} is stored. Leave blank to keep it.` : `No ${what} is stored.`}
    >
      <PasswordInput
        placeholder={stored ? 'Leave blank to keep current' : undefined}
        autoComplete="new-password"
        {...form.register(name)}
      />
    </FormField>
  );

  const busy = form.formState.isSubmitting || save.isPending || test.isPending || checkColumns.isPending;

  return (
    <form onSubmit={onSave} noValidate className="grid gap-6" aria-label="SharePoint settings">
      <Card>
        <CardHeader>
          <CardTitle>
            <h2 className="text-lg">Site and lists</h2>
          </CardTitle>
          <CardDescription>The SharePoint site and the lists the portal reads and writes.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 md:grid-cols-2">
          <div className="md:col-span-2">
            {text('siteUrl', 'SharePoint Site URL', {
              type: 'url',
              placeholder: 'https://yourorganisation.sharepoint.com/sites/yoursite',
            })}
          </div>
          {text('availabilityListName', 'Availability List Name')}
          {text('bookingsListName', 'Bookings List Name')}
          {text('facilitatorListName', 'Facilitator List Name', {
            description: 'Used for authentication: facilitators are matched to this list. Optional.',
          })}
          {text('schoolsListName', 'Schools List Name', { description: 'Optional.' })}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>
            <h2 className="text-lg">Credentials</h2>
          </CardTitle>
          <CardDescription>
            An Entra ID app registration (tenant ID, client ID, and a certificate or a client secret),
            optionally with a service account. Secrets and private keys are never shown again once saved.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 md:grid-cols-2">
          {text('tenantId', 'Tenant ID')}
          {text('clientId', 'Client ID')}
          <div className="md:col-span-2">
            {secret('clientSecret', 'Client Secret', saved.hasClientSecret, 'client secret')}
          </div>
          <CertificateFields
            data-testid="certificate-fields"
            idPrefix="settings"
            stored={saved.clientCertificate}
            hasStored={saved.hasClientCertificate}
            refusedBy="SharePoint"
            labels={{ certificate: 'Client Certificate (PEM)', key: 'Certificate Private Key (PEM)' }}
            certificateDescription={
              saved.hasClientCertificate
                ? 'A certificate is stored. Leave both blank to keep it; paste a new pair to replace it.'
                : 'Instead of a client secret: the certificate uploaded to the app registration (Certificates & secrets).'
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
          {text('username', 'Username', { description: 'Optional service account.' })}
          {secret('password', 'Password', saved.hasPassword, 'password')}
          {clearedNote ? (
            <p
              role="status"
              data-testid="secrets-cleared"
              className="rounded-md border border-warning/50 bg-warning/10 p-3 text-sm md:col-span-2"
            >
              {clearedNote} A stored secret is only ever used with the tenant, client and site it was entered
              for.
            </p>
          ) : null}
          <p className="flex items-start gap-2 rounded-md bg-muted p-3 text-muted-foreground text-sm md:col-span-2">
            <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
            Username and password sign-in does not work for accounts with multi-factor authentication (MFA).
            Use a client secret for those.
          </p>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>
            <h2 className="text-lg">Columns</h2>
          </CardTitle>
          <CardDescription>
            Which column of each list holds each field. Columns are matched by name; choose another where a
            match is missing or wrong. Your choices are saved with the settings.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <ColumnMappingPanel
            state={columns}
            mapping={mapping}
            onCheck={onCheckColumns}
            onChoose={onChooseColumn}
            busy={busy}
          />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>
            <h2 className="text-lg">Connection</h2>
          </CardTitle>
          <CardDescription>
            Test the settings as typed before saving. Blank secrets are tested with the stored ones, as long
            as the tenant, client and site are the stored ones.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <ConnectionStatus state={connection} />
          <FormError formState={form.formState} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="outline" onClick={onTest} disabled={busy}>
              <Plug aria-hidden />
              {test.isPending ? 'Testing...' : 'Test Connection'}
            </Button>
            <Button type="submit" disabled={busy}>
              <Save aria-hidden />
              {save.isPending ? 'Saving...' : 'Save Settings'}
            </Button>
          </div>
        </CardContent>
      </Card>
    </form>
  );
}
