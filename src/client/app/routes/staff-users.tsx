import { CalendarDays, ShieldCheck, UserSearch } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useAuth } from '@/features/auth/auth-provider';
import { type DataPerson, PersonDataDialog } from '@/features/data-protection';
import { type HistoryPerson, PersonHistoryDialog } from '@/features/history';
import { type ErasePerson, ErasePersonDialog } from '@/features/retention';
import {
  type SafeguardingPerson,
  SafeguardingRecordsDialog,
  SchoolRecordDownload,
  useSafeguardingList,
} from '@/features/safeguarding';
import { UserManagement } from '@/features/users/components/user-management';
import { userName } from '@/features/users/lib/users';
import { browserToday } from '@/lib/browser-today';
import { StaffLayout } from '../layouts/staff-layout';
import { StaffPagesNav } from '../layouts/staff-pages-nav';

/**
 * /staff/users: the staff shell (with Logout), its two ways back, the user management feature with
 * each facilitator's safeguarding state, and the record for schools.
 */
export default function StaffUsersRoute() {
  const { user } = useAuth();
  const [historyOf, setHistoryOf] = useState<HistoryPerson | null>(null);
  const [recordsOf, setRecordsOf] = useState<SafeguardingPerson | null>(null);
  const [dataOf, setDataOf] = useState<DataPerson | null>(null);
  const [erasing, setErasing] = useState<ErasePerson | null>(null);
  const statuses = useSafeguardingList();
  const safeguarding = useMemo(
    () => new Map((statuses.data?.people ?? []).map((person) => [person.userId, person.status])),
    [statuses.data],
  );
  return (
    <StaffLayout>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
        <StaffPagesNav
          links={[
            { href: '/staff', label: 'Calendar View', Icon: CalendarDays },
            { href: '/staff/free', label: 'Who is free', Icon: UserSearch },
            { href: '/staff/assurance', label: 'School’s assurance', Icon: ShieldCheck },
          ]}
        />
        <UserManagement
          currentUserId={user?.id ?? null}
          signInHref="/staff-login"
          onShowHistory={(person) => setHistoryOf({ id: person.id, name: userName(person) })}
          onShowDataProtection={(person) => setDataOf({ id: person.id, name: userName(person) })}
          onErase={(person) => setErasing({ id: person.id, name: userName(person) })}
          {...(statuses.data
            ? {
                safeguarding,
                onShowSafeguarding: (person) => setRecordsOf({ id: person.id, name: userName(person) }),
              }
            : {})}
        />
        <SchoolRecordDownload today={browserToday()} />
        <PersonHistoryDialog person={historyOf} onClose={() => setHistoryOf(null)} />
        <SafeguardingRecordsDialog person={recordsOf} onClose={() => setRecordsOf(null)} />
        <PersonDataDialog person={dataOf} onClose={() => setDataOf(null)} />
        <ErasePersonDialog person={erasing} onClose={() => setErasing(null)} />
      </div>
    </StaffLayout>
  );
}
