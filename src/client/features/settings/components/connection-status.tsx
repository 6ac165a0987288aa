import { CircleAlert, CircleCheck, CircleDashed, LoaderCircle } from 'lucide-react';
import { cn } from '@/lib/utils';

export type ConnectionState =
  | { kind: 'idle' }
  | { kind: 'testing' }
  | { kind: 'success'; detail: string }
  | { kind: 'error'; message: string };

export const SUCCESS_TEXT = 'Connection to SharePoint successful!';

const TIPS = [
  'Check that the site URL is right and opens in a browser.',
  'Check that each list name matches its SharePoint list exactly.',
  'Check the tenant ID, client ID and client secret, and that the app registration has access to the site.',
  'Username and password sign-in fails for accounts that use multi-factor authentication (MFA).',
];

/** The status panel: idle, testing, success or error with troubleshooting tips. */
export function ConnectionStatus({ state }: { state: ConnectionState }) {
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="connection-status"
      data-state={state.kind}
      className={cn(
        'rounded-lg border p-4 text-sm',
        state.kind === 'success' && 'border-success bg-success/10',
        state.kind === 'error' && 'border-destructive bg-destructive/10',
      )}
    >
      {state.kind === 'idle' ? (
        <p className="flex items-start gap-2 text-muted-foreground">
          <CircleDashed className="mt-0.5 size-4 shrink-0" aria-hidden />
          Connection not tested yet. Use Test Connection to check these settings before saving them.
        </p>
      ) : null}
      {state.kind === 'testing' ? (
        <p className="flex items-center gap-2">
          <LoaderCircle className="size-4 animate-spin text-primary" aria-hidden />
          Testing connection to SharePoint...
        </p>
      ) : null}
      {state.kind === 'success' ? (
        <div className="grid gap-1">
          <p className="flex items-start gap-2 font-medium">
            <CircleCheck className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
            {SUCCESS_TEXT}
          </p>
          {state.detail && state.detail !== SUCCESS_TEXT ? (
            <p className="pl-6 text-muted-foreground">{state.detail}</p>
          ) : null}
        </div>
      ) : null}
      {state.kind === 'error' ? (
        <div className="grid gap-2">
          <p className="flex items-start gap-2 font-semibold">
            <CircleAlert className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
            Connection Error
          </p>
          <p className="break-words pl-6">{state.message}</p>
          <div className="pl-6">
            <p className="font-medium">Troubleshooting tips</p>
            <ul className="mt-1 list-disc space-y-1 pl-5 text-muted-foreground">
              {TIPS.map((tip) => (
                <li key={tip}>{tip}</li>
              ))}
            </ul>
          </div>
        </div>
      ) : null}
    </div>
  );
}
