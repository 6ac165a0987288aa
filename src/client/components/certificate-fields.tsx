/**
 * A client certificate and its private key, pasted as PEM, for an Entra ID app registration: the
 * SharePoint settings and the Microsoft sign-in card both take one, stored the same way (write-only,
 * replaced as a pair, removable). What differs is the wording around it, which the caller gives.
 */
import type { CertificateDescription } from '@shared/schemas/settings';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField } from '@/components/ui/form';
import { Textarea } from '@/components/ui/textarea';
import { CertificateSummary } from './certificate-summary';

export interface CertificateFieldsProps {
  /** prefix of the fields' ids (`settings` gives `settings-clientCertificate`) */
  idPrefix: string;
  /** the stored certificate, described, or null */
  stored: CertificateDescription | null;
  /** whether a certificate is stored: then it can be removed */
  hasStored: boolean;
  /** what stops working once the stored certificate has expired */
  refusedBy: string;
  /** one page shows more than one certificate */
  summaryTestIdPrefix?: string;
  labels: { certificate: string; key: string };
  /** what the certificate field says: whether one is stored, what it replaces */
  certificateDescription: string;
  errors: { certificate?: string | undefined; key?: string | undefined };
  /** the form's registrations of the certificate, the key and the removal */
  fields: { certificate: UseFormRegisterReturn; key: UseFormRegisterReturn; remove: UseFormRegisterReturn };
  'data-testid'?: string;
}

function PemField({
  id,
  label,
  placeholder,
  description,
  error,
  field,
}: {
  id: string;
  label: string;
  placeholder: string;
  description: string;
  error: string | undefined;
  field: UseFormRegisterReturn;
}) {
  return (
    <FormField id={id} label={label} error={error} description={description}>
      <Textarea rows={4} placeholder={placeholder} autoComplete="off" spellCheck={false} code {...field} />
    </FormField>
  );
}

export function CertificateFields({
  idPrefix,
  stored,
  hasStored,
  refusedBy,
  summaryTestIdPrefix,
  labels,
  certificateDescription,
  errors,
  fields,
  'data-testid': testId,
}: CertificateFieldsProps) {
  return (
    <div className="grid gap-4 md:col-span-2" data-testid={testId}>
      <CertificateSummary certificate={stored} refusedBy={refusedBy} testIdPrefix={summaryTestIdPrefix} />
      <PemField
        id={`${idPrefix}-clientCertificate`}
        label={labels.certificate}
        placeholder="-----BEGIN CERTIFICATE-----"
        description={certificateDescription}
        error={errors.certificate}
        field={fields.certificate}
      />
      <PemField
        id={`${idPrefix}-clientCertificateKey`}
        label={labels.key}
        placeholder="-----BEGIN PRIVATE KEY-----"
        description="The RSA private key of that certificate, without a passphrase. Never shown again once saved."
        error={errors.key}
        field={fields.key}
      />
      {hasStored ? (
        <label className="flex items-center gap-2 text-sm" htmlFor={`${idPrefix}-removeClientCertificate`}>
          <input
            id={`${idPrefix}-removeClientCertificate`}
            type="checkbox"
            className="size-4 accent-primary"
            {...fields.remove}
          />
          Remove the stored certificate
        </label>
      ) : null}
    </div>
  );
}
