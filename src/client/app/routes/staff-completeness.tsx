import { addMonths, monthLabel } from '@shared/calendar';
import { Settings, Users } from 'lucide-react';
import { useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { Card, CardContent } from '@/components/ui/card';
import {
  askedReport,
  type CompletenessOrder,
  useCompleteness,
} from '@/features/completeness/api/completeness-api';
import { CompletenessPanel } from '@/features/completeness/components/completeness-panel';
import { isMonth } from '@/features/completeness/lib/completeness';
import { SendReminders } from '@/features/reminders/components/send-reminders';
import { browserToday } from '@/lib/browser-today';
import { StaffLayout } from '../layouts/staff-layout';
import { StaffPagesNav } from '../layouts/staff-pages-nav';

/** The month staff usually chase: the next one (the one being planned). */
function defaultMonth(): string {
  const today = browserToday();
  return addMonths(`${today.slice(0, 7)}-01`, 1).slice(0, 7);
}

/**
 * /staff/completeness: who has filled in a month, and "Send reminder" to those who have not. Month and
 * area live in the address so the view can be shared and reloaded.
 */
export default function StaffCompletenessRoute() {
  const params = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const requested = params.get('month');
  // worked out once: it asks the browser for its time zone, a costly call on a slow phone
  const [usualMonth] = useState(defaultMonth);
  const month = isMonth(requested) ? requested : usualMonth;
  const area = params.get('area') ?? '';
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [order, setOrder] = useState<CompletenessOrder>({ sort: 'name', direction: 'ascending' });

  const go = (next: { month: string; area: string }) => {
    const query = new URLSearchParams({ month: next.month, ...(next.area ? { area: next.area } : {}) });
    setSelected(new Set());
    navigate(`/staff/completeness?${query.toString()}`, { replace: true });
  };

  const report = askedReport(useCompleteness(month, area, order));
  // the partial and missing of every page, named by the server
  const candidates = report?.remindableIds ?? [];
  const chosen = candidates.filter((id) => selected.has(id));

  return (
    <StaffLayout>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
        <StaffPagesNav
          links={[
            { href: '/staff/users', label: 'Manage Users', Icon: Users },
            { href: '/settings', label: 'Email settings', Icon: Settings },
          ]}
        />
        <div className="grid gap-1">
          <h1 className="font-semibold text-2xl tracking-tight">Availability completeness</h1>
          <p className="text-muted-foreground">
            Who has set availability for every weekday of a month (complete), for some (partial) or for none
            (missing). Remind those who have not.
          </p>
        </div>
        <Card>
          <CardContent className="grid gap-6">
            <SendReminders
              month={month}
              label={monthLabel(`${month}-01`)}
              loading={report === null}
              candidates={candidates.length}
              // narrowed to an area, "everyone" means everyone shown
              shownIds={area ? candidates : undefined}
              selectedIds={chosen}
              onSent={() => setSelected(new Set())}
            />
            <CompletenessPanel
              month={month}
              area={area}
              onMonthChange={(next) => go({ month: next, area })}
              onAreaChange={(next) => go({ month, area: next })}
              order={order}
              onOrderChange={setOrder}
              selected={selected}
              onSelectedChange={setSelected}
            />
          </CardContent>
        </Card>
      </div>
    </StaffLayout>
  );
}
