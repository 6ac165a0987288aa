import { Download } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { downloadFile, errorMessage } from '@/lib/api';

/**
 * Staff download the record for schools: who was sent in a range (or to one school) and the state of
 * their checks on each session's day. Fetched first, so a refusal shows as a message.
 */
export function SchoolRecordDownload({ today }: { today: string }) {
  const id = useId();
  const [from, setFrom] = useState(`${today.slice(0, 7)}-01`);
  const [to, setTo] = useState(today);
  const [school, setSchool] = useState('');
  const [busy, setBusy] = useState(false);

  const download = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const query = new URLSearchParams({ from, to, ...(school.trim() ? { school: school.trim() } : {}) });
      await downloadFile(`/api/staff/safeguarding/export?${query}`, 'safeguarding-record.csv');
      toast({ title: 'Record downloaded', variant: 'success' });
    } catch (error) {
      toast({
        title: 'Download failed',
        description: errorMessage(error, 'The record could not be made'),
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
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
          onSubmit={download}
          className="grid gap-4 sm:grid-cols-[auto_auto_minmax(0,1fr)_auto] sm:items-end"
        >
          <FormField id={`${id}-from`} label="From">
            <Input type="date" value={from} onChange={(event) => setFrom(event.target.value)} required />
          </FormField>
          <FormField id={`${id}-to`} label="To">
            <Input type="date" value={to} onChange={(event) => setTo(event.target.value)} required />
          </FormField>
          <FormField id={`${id}-school`} label="School (optional)">
            <Input value={school} onChange={(event) => setSchool(event.target.value)} />
          </FormField>
          <Button type="submit" variant="outline" disabled={busy}>
            <Download aria-hidden />
            Download CSV
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
