import { ArrowLeft, CalendarDays, UserSearch } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/features/auth/auth-provider';
import { type HistoryPerson, PersonHistoryDialog } from '@/features/history';
import { UserManagement } from '@/features/users/components/user-management';
import { userName } from '@/features/users/lib/users';
import { StaffLayout } from '../layouts/staff-layout';

/** /staff/users: the staff shell (with Logout), its two ways back, and the user management feature. */
export default function StaffUsersRoute() {
  const { user } = useAuth();
  const [historyOf, setHistoryOf] = useState<HistoryPerson | null>(null);
  return (
    <StaffLayout>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
        <nav aria-label="Staff pages" className="flex flex-wrap items-center gap-2">
          <Button variant="ghost" size="sm" asChild>
            <Link href="/staff">
              <ArrowLeft aria-hidden />
              Back to Dashboard
            </Link>
          </Button>
          <Button variant="outline" size="sm" asChild>
            <Link href="/staff">
              <CalendarDays aria-hidden />
              Calendar View
            </Link>
          </Button>
          <Button variant="outline" size="sm" asChild>
            <Link href="/staff/free">
              <UserSearch aria-hidden />
              Who is free
            </Link>
          </Button>
        </nav>
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
