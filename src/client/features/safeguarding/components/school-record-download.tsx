import { zodResolver } from '@hookform/resolvers/zod';
import { safeguardingExportQuery } from '@shared/schemas/safeguarding';
import { Download } from 'lucide-react';
import { useId } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { downloadFile, errorMessage } from '@/lib/api';

interface RecordForm {
  from: string;
  to: string;
  school: string;
}

// the query's own rules, checked before asking; the values are sent as typed
const resolver = zodResolver(safeguardingExportQuery, undefined, { raw: true }) as Resolver<RecordForm>;

/**
 * Staff download the record for schools: who was sent in a range (or to one school) and the state of
 * their checks on each session's day. Fetched first, so a refusal shows as a message.
 */
export function SchoolRecordDownload({ today }: { today: string }) {
  const id = useId();
  const form = useForm<RecordForm>({
    resolver,
    defaultValues: { from: `${today.slice(0, 7)}-01`, to: today, school: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const download = async ({ from, to, school }: RecordForm) => {
    const query = new URLSearchParams({ from, to, ...(school.trim() ? { school: school.trim() } : {}) });
    try {
      await downloadFile(`/api/staff/safeguarding/export?${query}`, 'safeguarding-record.csv');
      toast({ title: 'Record downloaded', variant: 'success' });
    } catch (error) {
      toast({
        title: 'Download failed',
        description: errorMessage(error, 'The record could not be made'),
        variant: 'destructive',
      });
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Safeguarding record for schools</h2>
        </CardTitle>
        <CardDescription>
          Who was sent, and the state of their checks on each session day, as CSV. Certificate numbers show
          their last four digits only.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          onSubmit={form.handleSubmit(download)}
          noValidate
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
          <Button type="submit" variant="outline" disabled={isSubmitting}>
            <Download aria-hidden />
            Download CSV
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
