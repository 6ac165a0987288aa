import type { FreeFacilitator } from '@shared/schemas/free';
import { useQueryClient } from '@tanstack/react-query';
import { Users } from 'lucide-react';
import { useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { freeKeys } from '@/features/free/api/free-api';
import { FreeSearch } from '@/features/free/components/free-search';
import { type FreeSearchState, searchFromAddress, searchQueryString } from '@/features/free/lib/free-model';
import { useStaffNotes } from '@/features/notes/api/notes-api';
import { notesOfDay } from '@/features/notes/lib/note-model';
import { useStaffGridRow } from '@/features/staff-grid/api/staff-grid-api';
import { StaffLayout } from '../layouts/staff-layout';
import { StaffPagesNav } from '../layouts/staff-pages-nav';
import { StaffDayDialog } from '../staff-day-dialog';

/** /staff/free: who can work on a day. The search lives in the address, so it can be shared and reloaded. */
export default function StaffFreeRoute() {
  const address = useSearch();
  const [, navigate] = useLocation();
  const search = searchFromAddress(address);
  const change = (next: FreeSearchState) => {
    const query = searchQueryString(next);
    navigate(query ? `/staff/free?${query}` : '/staff/free', { replace: true });
  };
  const [open, setOpen] = useState<{ userId: number; date: string } | null>(null);
  const queryClient = useQueryClient();
  const close = () => {
    setOpen(null);
    // a change made in the day dialog can change who is free
    void queryClient.invalidateQueries({ queryKey: freeKeys.all });
  };

  return (
    <StaffLayout>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
        <StaffPagesNav links={[{ href: '/staff/users', label: 'Manage Users', Icon: Users }]} />
        <div className="grid gap-1">
          <h1 className="font-semibold text-2xl tracking-tight">Who is free</h1>
          <p className="text-muted-foreground">
            Facilitators who can work on a day, best match first: available before limited, and times that
            cover your window before open times.
          </p>
        </div>
        <FreeSearch
          search={search}
          onSearchChange={change}
          onOpenDay={(row: FreeFacilitator, date: string) => setOpen({ userId: row.userId, date })}
        />
      </div>
      {open ? <FreeDayDialog userId={open.userId} date={open.date} onClose={close} /> : null}
    </StaffLayout>
  );
}

/** The dashboard's day dialog for one result: that person's availability, bookings and notes that day. */
function FreeDayDialog({ userId, date, onClose }: { userId: number; date: string; onClose: () => void }) {
  const row = useStaffGridRow(userId, date);
  const notes = useStaffNotes('week', date);
  // opens once the day's rows are in, so the availability block never shows "not set" by mistake
  const ready = row && !notes.isPending;
  return (
    <StaffDayDialog
      selection={ready ? { user: row.user, date } : null}
      onClose={onClose}
      availability={row?.availability[0]}
      bookings={row?.bookings ?? []}
      notes={notesOfDay(notes.data ?? [], userId, date)}
    />
  );
}
