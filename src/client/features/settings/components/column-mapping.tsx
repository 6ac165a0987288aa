import type {
  ColumnCheckResult,
  ColumnMapping,
  FieldMatch,
  ListColumnsReport,
  ListKind,
} from '@shared/schemas/sharepoint-columns';
import { CircleAlert, CircleCheck, Columns3, LoaderCircle } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

const TYPE_LABELS: Record<string, string> = {
  text: 'text',
  note: 'multi-line text',
  number: 'number',
  choice: 'choice',
  dateOnly: 'date',
  dateTime: 'date and time',
  boolean: 'yes/no',
  other: 'other',
};

export type ColumnCheckState =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | { kind: 'done'; result: ColumnCheckResult }
  | { kind: 'error'; message: string };

interface ColumnMappingProps {
  state: ColumnCheckState;
  mapping: ColumnMapping;
  onCheck: () => void;
  /** staff chose a column for a field ('' = none) */
  onChoose: (list: ListKind, field: string, column: string) => void;
  busy: boolean;
}

function statusOf(match: FieldMatch): { ok: boolean; text: string } {
  if (match.message) return { ok: false, text: match.message };
  if (!match.column) return { ok: true, text: 'Not used' };
  return { ok: true, text: match.source === 'staff' ? 'Chosen by staff' : 'Matched automatically' };
}

function ListTable({
  report,
  onChoose,
  busy,
}: {
  report: ListColumnsReport;
  onChoose: ColumnMappingProps['onChoose'];
  busy: boolean;
}) {
  const headingId = `columns-${report.list}`;
  if (report.error) {
    return (
      <section aria-labelledby={headingId} className="grid gap-2">
        <h4 id={headingId} className="font-medium">
          {report.label} “{report.listName}”
        </h4>
        <p className="flex items-start gap-2 text-sm" data-testid={`columns-error-${report.list}`}>
          <CircleAlert className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
          {report.error}
        </p>
      </section>
    );
  }
  const problems = report.fields.filter((f) => f.problem).length;
  return (
    <section aria-labelledby={headingId} className="grid gap-2" data-testid={`columns-${report.list}`}>
      <h4 id={headingId} className="font-medium">
        {report.label} “{report.listName}”{' '}
        <span className="font-normal text-muted-foreground text-sm">
          {problems === 0 ? '— every field has a column' : `— ${problems} to fix`}
        </span>
      </h4>
      <div className="overflow-x-auto">
        <table className="w-full text-sm">
          <thead>
            <tr className="border-b text-left text-muted-foreground">
              <th scope="col" className="py-2 pr-3 font-medium">
                Portal field
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">
                SharePoint column
              </th>
              <th scope="col" className="py-2 font-medium">
                Status
              </th>
            </tr>
          </thead>
          <tbody>
            {report.fields.map((match) => {
              const status = statusOf(match);
              const selectId = `column-${report.list}-${match.field}`;
              return (
                <tr key={match.field} className="border-b last:border-0" data-field={match.field}>
                  <th scope="row" className="py-2 pr-3 text-left font-normal">
                    <label htmlFor={selectId}>
                      {match.label}
                      {match.required ? <span className="text-muted-foreground"> (required)</span> : null}
                    </label>
                  </th>
                  <td className="py-2 pr-3">
                    <select
                      id={selectId}
                      className="h-9 w-full min-w-40 rounded-md border border-input bg-background px-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                      value={match.column ?? ''}
                      disabled={busy}
                      onChange={(event) => onChoose(report.list, match.field, event.target.value)}
                    >
                      <option value="">No column</option>
                      {report.columns.map((column) => (
                        <option key={column.name} value={column.name}>
                          {column.displayName === column.name
                            ? column.name
                            : `${column.displayName} (${column.name})`}{' '}
                          — {TYPE_LABELS[column.type] ?? column.type}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td
                    className={cn('py-2', status.ok ? 'text-muted-foreground' : 'text-destructive')}
                    data-testid={`status-${report.list}-${match.field}`}
                  >
                    <span className="flex items-start gap-1.5">
                      {status.ok ? (
                        <CircleCheck className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
                      ) : (
                        <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
                      )}
                      {status.text}
                    </span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {report.mustIndex.length > 0 ? (
        <p className="text-sm" data-testid={`must-index-${report.list}`}>
          Index {report.mustIndex.join(', ')} in this list (List settings → Indexed columns): the portal looks
          items up by it, and SharePoint refuses such look-ups once a list passes 5,000 items.
        </p>
      ) : null}
    </section>
  );
}

/** Which column holds each portal field, per list: what matched, what is missing, what to correct. */
export function ColumnMappingPanel({ state, mapping, onCheck, onChoose, busy }: ColumnMappingProps) {
  const chosen = Object.values(mapping).reduce((n, fields) => n + Object.keys(fields ?? {}).length, 0);
  return (
    <div className="grid gap-4">
      <div role="status" aria-live="polite" data-testid="columns-status" className="text-sm">
        {state.kind === 'idle' ? (
          <p className="text-muted-foreground">
            Columns not checked yet. The portal matches each field to a column by its name; check them to see
            the result{chosen > 0 ? ` (${chosen} chosen by staff)` : ''}.
          </p>
        ) : null}
        {state.kind === 'checking' ? (
          <p className="flex items-center gap-2">
            <LoaderCircle className="size-4 animate-spin text-primary" aria-hidden />
            Reading the lists' columns...
          </p>
        ) : null}
        {state.kind === 'error' ? <p className="text-destructive">{state.message}</p> : null}
        {state.kind === 'done' && !state.result.reached ? (
          <p className="text-destructive">{state.result.message}</p>
        ) : null}
      </div>
      {state.kind === 'done'
        ? state.result.lists.map((report) => (
            <ListTable key={report.list} report={report} onChoose={onChoose} busy={busy} />
          ))
        : null}
      <div className="flex justify-end">
        <Button type="button" variant="outline" onClick={onCheck} disabled={busy}>
          <Columns3 aria-hidden />
          {state.kind === 'checking' ? 'Checking...' : 'Check Columns'}
        </Button>
      </div>
    </div>
  );
}
