import { UserSearch, Users } from 'lucide-react';
import { OpenSessions } from '@/features/offers';
import { StaffLayout } from '../layouts/staff-layout';
import { StaffPagesNav } from '../layouts/staff-pages-nav';

/** /staff/sessions: sessions without a facilitator, offered to facilitators from here. */
export default function StaffSessionsRoute() {
  return (
    <StaffLayout>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
        <StaffPagesNav
          links={[
            { href: '/staff/users', label: 'Manage Users', Icon: Users },
            { href: '/staff/free', label: 'Who is free', Icon: UserSearch },
          ]}
        />
        <div className="grid gap-1">
          <h1 className="font-semibold text-2xl tracking-tight">Open sessions</h1>
          <p className="text-muted-foreground">
            Sessions in SharePoint with no facilitator yet, from today on. Offer one to one or more
            facilitators: the first to accept gets it, and SharePoint is updated.
          </p>
        </div>
        <OpenSessions />
      </div>
    </StaffLayout>
  );
}
