import { CERTIFICATE_VIEW_LABELS, PHOTO_MAX_BYTES } from '@shared/schemas/data-protection';
import { Download, ImageUp, Trash2 } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/components/ui/use-toast';
import { downloadFile, errorMessage } from '@/lib/api';
import { useCertificateViews, useDeletePhoto, useUploadPhoto } from '../api/data-protection-api';

export interface DataPerson {
  id: number;
  name: string;
}

const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * Staff: what data protection asks about one person: their subject access archive, the photo schools
 * see on the assurance, and the log of who has been shown their whole certificate number. Opened from
 * outside (no trigger of its own).
 */
export function PersonDataDialog({ person, onClose }: { person: DataPerson | null; onClose: () => void }) {
  return (
    <Dialog open={person !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent width="xl">{person ? <PersonData person={person} /> : null}</DialogContent>
    </Dialog>
  );
}

function PersonData({ person }: { person: DataPerson }) {
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      await downloadFile(`/api/staff/users/${person.id}/subject-access`, 'subject-access.zip');
      toast({ title: 'Archive downloaded', variant: 'success' });
    } catch (error) {
      toast({
        title: 'Download failed',
        description: errorMessage(error, 'The archive could not be made'),
        variant: 'destructive',
      });
    } finally {
      setDownloading(false);
    }
  };
  return (
    <>
      <DialogHeader>
        <DialogTitle>Personal data: {person.name}</DialogTitle>
        <DialogDescription>
          Everything held about this person, their photo for schools, and who has seen their certificate
          number.
        </DialogDescription>
      </DialogHeader>
      <section aria-labelledby={`sar-${person.id}`} className="grid gap-2">
        <h3 id={`sar-${person.id}`} className="font-semibold">
          Subject access
        </h3>
        <p className="text-muted-foreground text-sm">
          One zip file of everything the portal holds about them, with a guide to each file. It holds the
          whole certificate number, so the download is entered in the viewing log.
        </p>
        <div>
          <Button type="button" variant="outline" onClick={download} disabled={downloading}>
            <Download aria-hidden />
            Download their data
          </Button>
        </div>
      </section>
      <PhotoSection person={person} />
      <ViewingLog person={person} />
    </>
  );
}

function PhotoSection({ person }: { person: DataPerson }) {
  const id = useId();
  const [version, setVersion] = useState(0);
  const [shown, setShown] = useState<'loading' | 'shown' | 'none'>('loading');
  const [error, setError] = useState<string | null>(null);
  const upload = useUploadPhoto(person.id);
  const remove = useDeletePhoto(person.id);

  const choose = (file: File | undefined) => {
    setError(null);
    if (!file) return;
    if (file.size > PHOTO_MAX_BYTES) {
      setError('The photo is larger than 5 MB');
      return;
    }
    const reader = new FileReader();
    reader.onload = () => {
      const data = String(reader.result);
      upload.mutate(data.slice(data.indexOf(',') + 1), {
        onSuccess: () => {
          setShown('loading');
          setVersion((v) => v + 1);
          toast({ title: 'Photo saved', variant: 'success' });
        },
        onError: (failure) => setError(errorMessage(failure, 'The photo could not be saved')),
      });
    };
    reader.readAsDataURL(file);
  };

  return (
    <section aria-labelledby={`${id}-heading`} className="grid gap-2">
      <h3 id={`${id}-heading`} className="font-semibold">
        Photo for schools
      </h3>
      <p className="text-muted-foreground text-sm">
        Shown to staff and on the school’s assurance, so a school can see that the person who arrives is the
        person checked. It is resized and its metadata (camera, place, time) removed.
      </p>
      <div className="flex flex-wrap items-end gap-4">
        {shown !== 'none' ? (
          <img
            key={version}
            src={`/api/staff/users/${person.id}/photo?v=${version}`}
            alt={person.name}
            className={shown === 'shown' ? 'h-32 w-auto rounded border' : 'sr-only'}
            onLoad={() => setShown('shown')}
            onError={() => setShown('none')}
          />
        ) : (
          <p className="text-sm">No photo is kept.</p>
        )}
        <div className="grid gap-1">
          <label htmlFor={`${id}-file`} className="font-medium text-sm">
            Choose a photo (JPEG, PNG or WebP, at most 5 MB)
          </label>
          <input
            id={`${id}-file`}
            type="file"
            accept="image/jpeg,image/png,image/webp"
            className="text-sm"
            disabled={upload.isPending}
            onChange={(event) => {
              choose(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
        </div>
        {shown === 'shown' ? (
          <Button
            type="button"
            variant="outline"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(undefined, {
                onSuccess: () => {
                  setShown('none');
                  toast({ title: 'Photo removed', variant: 'success' });
                },
                onError: (failure) => setError(errorMessage(failure, 'The photo could not be removed')),
              })
            }
          >
            <Trash2 aria-hidden />
            Remove photo
          </Button>
        ) : null}
        {upload.isPending ? (
          <p role="status" className="text-sm">
            <ImageUp aria-hidden className="mr-1 inline size-4" />
            Saving the photo…
          </p>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="text-destructive text-sm">
          {error}
        </p>
      ) : null}
    </section>
  );
}

function ViewingLog({ person }: { person: DataPerson }) {
  const views = useCertificateViews(person.id);
  // a region of its own, reachable by keyboard: the log can be long and wider than the dialog
  const scrollRef = useRef<HTMLDivElement>(null);
  return (
    <section aria-labelledby={`log-${person.id}`} className="grid gap-2">
      <h3 id={`log-${person.id}`} className="font-semibold">
        Who has seen the certificate number
      </h3>
      {views.isError ? <p role="alert">{errorMessage(views.error, 'The log could not be read')}</p> : null}
      {views.isPending ? <Skeleton className="h-16 w-full" /> : null}
      {views.data && views.data.views.length === 0 ? (
        <p className="text-sm">Nobody has been shown or sent the whole certificate number.</p>
      ) : null}
      {views.data && views.data.views.length > 0 ? (
        <Table containerLabel={`Who has seen the certificate number of ${person.name}`} scrollRef={scrollRef}>
          <TableHeader>
            <TableRow>
              <TableHead>When</TableHead>
              <TableHead>Who</TableHead>
              <TableHead>How</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {views.data.views.map((view) => (
              <TableRow key={view.id}>
                <TableCell>{when.format(new Date(view.at))}</TableCell>
                <TableCell>{view.viewerName}</TableCell>
                <TableCell>{CERTIFICATE_VIEW_LABELS[view.via]}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
      {views.data?.more ? (
        <p className="text-muted-foreground text-sm">
          The 200 most recent are shown; the archive holds them all.
        </p>
      ) : null}
    </section>
  );
}
