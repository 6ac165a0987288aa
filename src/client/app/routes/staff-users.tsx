import { CalendarDays, UserSearch } from 'lucide-react';
import { useState } from 'react';
import { useAuth } from '@/features/auth/auth-provider';
import { type HistoryPerson, PersonHistoryDialog } from '@/features/history';
import { UserManagement } from '@/features/users/components/user-management';
import { userName } from '@/features/users/lib/users';
import { StaffLayout } from '../layouts/staff-layout';
import { StaffPagesNav } from '../layouts/staff-pages-nav';

/** /staff/users: the staff shell (with Logout), its two ways back, and the user management feature. */
export default function StaffUsersRoute() {
  const { user } = useAuth();
  const [historyOf, setHistoryOf] = useState<HistoryPerson | null>(null);
  return (
    <StaffLayout>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
        <StaffPagesNav
          links={[
            { href: '/staff', label: 'Calendar View', Icon: CalendarDays },
            { href: '/staff/free', label: 'Who is free', Icon: UserSearch },
          ]}
        />
        <UserManagement
          currentUserId={user?.id ?? null}
          signInHref="/staff-login"
          onShowHistory={(person) => setHistoryOf({ id: person.id, name: userName(person) })}
        />
        <PersonHistoryDialog person={historyOf} onClose={() => setHistoryOf(null)} />
      </div>
    </StaffLayout>
  );
}
