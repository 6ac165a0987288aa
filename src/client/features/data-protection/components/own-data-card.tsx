import { Download } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { downloadFile, errorMessage } from '@/lib/api';

/** A facilitator downloads everything the portal holds about them (their subject access archive). */
export function OwnDataCard() {
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      await downloadFile('/api/account/subject-access', 'my-data.zip');
      toast({ title: 'Your data downloaded', variant: 'success' });
    } catch (error) {
      toast({
        title: 'Download failed',
        description: errorMessage(error, 'Your data could not be gathered'),
        variant: 'destructive',
      });
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Your data</h2>
        </CardTitle>
        <CardDescription>
          Download everything the portal holds about you as one zip file of spreadsheets (CSV) and data files
          (JSON), with a guide to each.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button type="button" variant="outline" onClick={download} disabled={downloading}>
          <Download aria-hidden />
          Download my data
        </Button>
      </CardContent>
    </Card>
  );
}
