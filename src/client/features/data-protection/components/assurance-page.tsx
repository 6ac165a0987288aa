import { zodResolver } from '@hookform/resolvers/zod';
import { dayLabel } from '@shared/safeguarding';
import {
  type AssuranceQuery,
  type AssuranceSession,
  assuranceHeading,
  assuranceLines,
  assuranceQuery,
  assuranceStatementBody,
} from '@shared/schemas/data-protection';
import { FileDown, Printer, Save, Search } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { downloadFile, errorMessage, showRefusal } from '@/lib/api';
import {
  assurancePdfUrl,
  useAssurance,
  useAssuranceStatement,
  useSaveAssuranceStatement,
} from '../api/data-protection-api';

interface RangeForm {
  from: string;
  to: string;
  school: string;
}
const rangeResolver = zodResolver(assuranceQuery, undefined, { raw: true }) as Resolver<RangeForm>;

/**
 * The school's assurance (staff): the people sent to one session, or to a school's sessions between
 * two days, with their checks as they stood on each session's day and the organisation's
 * confirmation statement. Downloaded as a PDF made by the server, or printed from the browser (the
 * print stylesheet keeps the page and leaves the controls out).
 */
export function AssurancePage({
  query,
  today,
  onQuery,
}: {
  query: AssuranceQuery | null;
  today: string;
  onQuery: (query: AssuranceQuery) => void;
}) {
  const id = useId();
  const form = useForm<RangeForm>({
    resolver: rangeResolver,
    defaultValues: {
      from: query?.from ?? `${today.slice(0, 7)}-01`,
      to: query?.to ?? today,
      school: query?.school ?? '',
    },
  });
  const { errors } = form.formState;
  const answer = useAssurance(query);

  return (
    <div className="grid gap-6">
      <Card className="print:hidden">
        <CardHeader>
          <CardTitle>
            <h2>Choose the sessions</h2>
          </CardTitle>
          <CardDescription>
            A school’s sessions between two days, or open one session’s page from the sessions list. Download
            the PDF, or print the page, to send it to the school.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form
            noValidate
            onSubmit={form.handleSubmit(({ from, to, school }) =>
              onQuery({ from, to, ...(school.trim() ? { school: school.trim() } : {}) }),
            )}
            className="grid gap-4 sm:grid-cols-[auto_auto_minmax(0,1fr)_auto] sm:items-end"
          >
            <FormField id={`${id}-from`} label="From" error={errors.from?.message}>
              <Input type="date" {...form.register('from')} />
            </FormField>
            <FormField id={`${id}-to`} label="To" error={errors.to?.message}>
              <Input type="date" {...form.register('to')} />
            </FormField>
            <FormField id={`${id}-school`} label="School (optional)" error={errors.school?.message}>
              <Input {...form.register('school')} />
            </FormField>
            <Button type="submit" variant="outline">
              <Search aria-hidden />
              Show
            </Button>
          </form>
        </CardContent>
      </Card>
      <StatementCard />
      {answer.isError ? (
        <p role="alert">{errorMessage(answer.error, 'The assurance could not be made')}</p>
      ) : null}
      {query && answer.isPending ? <Skeleton className="h-40 w-full" /> : null}
      {answer.data ? (
        <article
          aria-labelledby={`${id}-title`}
          className="grid gap-4 rounded-lg border bg-card p-4 print:border-0 print:p-0"
        >
          <div className="flex flex-wrap items-start justify-between gap-4">
            <div>
              <h2 id={`${id}-title`} className="font-semibold text-xl">
                Confirmation of safeguarding checks
              </h2>
              <p className="text-muted-foreground text-sm">
                Made {new Date(answer.data.generatedAt).toLocaleString('en-GB')}
              </p>
            </div>
            <div className="flex flex-wrap gap-2 print:hidden">
              {query ? <PdfDownload query={query} /> : null}
              <Button type="button" variant="outline" onClick={() => window.print()}>
                <Printer aria-hidden />
                Print
              </Button>
            </div>
          </div>
          {answer.data.sessions.length === 0 ? <p>No one was sent to a session in these days.</p> : null}
          {answer.data.sessions.map((session) => (
            <SessionChecks key={session.bookingId} session={session} />
          ))}
          <p className="border-t pt-3">{answer.data.statement}</p>
        </article>
      ) : null}
    </div>
  );
}

/** The assurance as a PDF file, fetched first so a refusal shows as a message. */
function PdfDownload({ query }: { query: AssuranceQuery }) {
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      await downloadFile(assurancePdfUrl(query), 'assurance.pdf');
      toast({ title: 'PDF downloaded', variant: 'success' });
    } catch (error) {
      toast({
        title: 'Download failed',
        description: errorMessage(error, 'The PDF could not be made'),
        variant: 'destructive',
      });
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Button type="button" variant="outline" onClick={download} disabled={downloading}>
      <FileDown aria-hidden />
      Download PDF
    </Button>
  );
}

function SessionChecks({ session }: { session: AssuranceSession }) {
  const { person } = session;
  return (
    <section
      className="grid gap-2 break-inside-avoid border-t pt-3"
      aria-label={`${dayLabel(session.date)}: ${person.name}`}
    >
      <h3 className="font-semibold">{assuranceHeading(session)}</h3>
      {session.session ? <p className="text-muted-foreground text-sm">{session.session}</p> : null}
      <div className="flex flex-wrap gap-4">
        {person.hasPhoto ? (
          <img
            src={`/api/staff/users/${person.userId}/photo`}
            alt={person.name}
            className="h-28 w-auto rounded border"
          />
        ) : null}
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
          {assuranceLines(person).map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="font-medium">{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}

type StatementForm = { statement: string };
const statementResolver = zodResolver(assuranceStatementBody, undefined, {
  raw: true,
}) as Resolver<StatementForm>;

function StatementCard() {
  const id = useId();
  const statement = useAssuranceStatement();
  const save = useSaveAssuranceStatement();
  const form = useForm<StatementForm>({ resolver: statementResolver, defaultValues: { statement: '' } });
  const loaded = statement.data?.statement;
  useEffect(() => {
    if (loaded !== undefined) form.reset({ statement: loaded });
  }, [loaded, form]);
  return (
    <Card className="print:hidden">
      <CardHeader>
        <CardTitle>
          <h2>Confirmation statement</h2>
        </CardTitle>
        <CardDescription>Printed at the foot of every assurance.</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          className="grid gap-3"
          onSubmit={form.handleSubmit((values) =>
            save.mutateAsync(values).then(
              () => toast({ title: 'Statement saved', variant: 'success' }),
              (error) => showRefusal(form.setError, error, 'The statement could not be saved'),
            ),
          )}
        >
          <FormField
            id={`${id}-statement`}
            label="Statement"
            error={form.formState.errors.statement?.message}
          >
            <Textarea rows={3} {...form.register('statement')} />
          </FormField>
          <div>
            <Button type="submit" variant="outline" disabled={save.isPending || statement.isPending}>
              <Save aria-hidden />
              Save statement
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
