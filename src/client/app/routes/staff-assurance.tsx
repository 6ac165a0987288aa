import { assuranceQuery } from '@shared/schemas/data-protection';
import { CalendarDays, Users } from 'lucide-react';
import { useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { AssurancePage } from '@/features/data-protection';
import { browserToday } from '@/lib/browser-today';
import { StaffLayout } from '../layouts/staff-layout';
import { StaffPagesNav } from '../layouts/staff-pages-nav';

/**
 * /staff/assurance: the school's assurance for one session (`?bookingId=`) or a school's sessions
 * between two days (`?from=&to=&school=`). The choice lives in the address, so a page can be shared,
 * reloaded and printed.
 */
export default function StaffAssuranceRoute() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const [today] = useState(browserToday);
  const parsed = assuranceQuery.safeParse(Object.fromEntries(new URLSearchParams(search)));
  const query = search && parsed.success ? parsed.data : null;
  return (
    <StaffLayout>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
        <div className="print:hidden">
          <StaffPagesNav
            links={[
              { href: '/staff', label: 'Calendar View', Icon: CalendarDays },
              { href: '/staff/users', label: 'Users', Icon: Users },
            ]}
          />
        </div>
        <div className="grid gap-1 print:hidden">
          <h1 className="font-semibold text-2xl tracking-tight">School’s assurance</h1>
          <p className="text-muted-foreground text-sm">
            Each person sent and their checks as they stood on the session’s day, for the school’s single
            central record. Certificate numbers show their last four digits only.
          </p>
        </div>
        <AssurancePage
          query={query}
          today={today}
          onQuery={(next) => {
            const params = new URLSearchParams(
              Object.entries(next).flatMap(([key, value]) =>
                value === undefined ? [] : [[key, String(value)]],
              ),
            );
            navigate(`/staff/assurance?${params}`, { replace: true });
          }}
        />
      </div>
    </StaffLayout>
  );
}
