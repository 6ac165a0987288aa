import type { DateRange } from '@shared/calendar';
import type { ExportFormat } from '@shared/schemas/exports';
import { ChevronDown, Download } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { toast } from '@/components/ui/use-toast';
import { downloadFile, errorMessage } from '@/lib/api';
import { type GridExportFilters, staffExportUrl } from '../lib/export-urls';

const FORMATS: { format: ExportFormat; label: string }[] = [
  { format: 'csv', label: 'CSV (.csv)' },
  { format: 'xlsx', label: 'Excel workbook (.xlsx)' },
];

/** Downloads the staff grid as it is shown: the same range, areas and facilitators. */
export function StaffExportMenu({
  range,
  filters,
  shown,
  searching = false,
}: {
  range: DateRange;
  filters: GridExportFilters;
  /** how many facilitators the grid shows: nothing to download when none */
  shown: number;
  /** the grid is searched: a download has everyone its filters choose, which the grid does not count */
  searching?: boolean;
}) {
  const [pending, setPending] = useState<ExportFormat | null>(null);

  const download = async (format: ExportFormat) => {
    setPending(format);
    try {
      const name = await downloadFile(
        staffExportUrl(format, range, filters),
        `facilitator-schedule.${format}`,
      );
      toast({ title: 'Download started', description: name });
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'The download failed',
        description: errorMessage(error, 'Please try again.'),
      });
    } finally {
      setPending(null);
    }
  };

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="outline"
          disabled={pending !== null || (shown === 0 && !searching)}
          data-testid="staff-export"
        >
          <Download aria-hidden />
          {pending ? 'Preparing...' : 'Download'}
          <ChevronDown aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64">
        <DropdownMenuLabel className="grid gap-0.5">
          <span>Download this view</span>
          <span className="font-normal text-muted-foreground text-xs" data-testid="staff-export-scope">
            {searching
              ? 'Everyone the area and facilitator filters choose (the search is not applied)'
              : `${shown} ${shown === 1 ? 'facilitator' : 'facilitators'}`}
            <br />
            {range.from} to {range.to}
          </span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {FORMATS.map(({ format, label }) => (
          <DropdownMenuItem key={format} onSelect={() => void download(format)}>
            {label}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
