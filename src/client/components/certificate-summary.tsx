import type { CertificateDescription } from '@shared/schemas/settings';
import { ShieldCheck, TriangleAlert } from 'lucide-react';

// built when a certificate is first shown, not as the settings pages' code loads (ADR 53)
let dateFormat: Intl.DateTimeFormat | undefined;
function formatExpiry(iso: string): string {
  dateFormat ??= new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });
  return dateFormat.format(new Date(iso));
}

function daysText(days: number): string {
  return days === 1 ? '1 day' : `${days} days`;
}

/**
 * A stored client certificate (SharePoint's or Microsoft sign-in's): subject, thumbprint and expiry,
 * with a warning from 30 days before it expires.
 */
export function CertificateSummary({
  certificate,
  refusedBy,
  testIdPrefix = 'certificate',
}: {
  certificate: CertificateDescription | null;
  /** what stops working once it has expired */
  refusedBy: string;
  /** one page shows more than one certificate */
  testIdPrefix?: string;
}) {
  if (!certificate) return null;
  const expiresOn = formatExpiry(certificate.expiresAt);
  return (
    <div className="grid gap-2 rounded-md border p-3 text-sm" data-testid={`${testIdPrefix}-summary`}>
      <p className="flex items-start gap-2 font-medium">
        <ShieldCheck className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
        Certificate stored: {certificate.subject}
      </p>
      <dl className="grid gap-1 pl-6 text-muted-foreground sm:grid-cols-[auto_1fr] sm:gap-x-3">
        <dt>Thumbprint</dt>
        <dd className="break-all font-mono text-xs text-foreground">{certificate.thumbprint}</dd>
        <dt>Expires</dt>
        <dd className="text-foreground" data-testid={`${testIdPrefix}-expiry`}>
          {expiresOn}
        </dd>
      </dl>
      {certificate.expiringSoon ? (
        <p
          role="alert"
          data-testid={`${testIdPrefix}-warning`}
          className="flex items-start gap-2 rounded-md border border-warning/60 bg-warning/10 p-2"
        >
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          {certificate.expired
            ? `The certificate expired on ${expiresOn}: ${refusedBy} refuses it. Upload a new certificate to the app registration (Certificates & secrets) and enter it here.`
            : `The certificate expires in ${daysText(certificate.expiresInDays)}, on ${expiresOn}. Upload a new certificate to the app registration (Certificates & secrets) and enter it here before then.`}
        </p>
      ) : null}
    </div>
  );
}
