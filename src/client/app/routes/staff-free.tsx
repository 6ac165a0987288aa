import { Users } from 'lucide-react';
import { useLocation, useSearch } from 'wouter';
import { FreeSearch } from '@/features/free/components/free-search';
import { type FreeSearchState, searchFromAddress, searchQueryString } from '@/features/free/lib/free-model';
import { StaffLayout } from '../layouts/staff-layout';
import { StaffPagesNav } from '../layouts/staff-pages-nav';

/** /staff/free: who can work on a day. The search lives in the address, so it can be shared and reloaded. */
export default function StaffFreeRoute() {
  const address = useSearch();
  const [, navigate] = useLocation();
  const search = searchFromAddress(address);
  const change = (next: FreeSearchState) => {
    const query = searchQueryString(next);
    navigate(query ? `/staff/free?${query}` : '/staff/free', { replace: true });
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
        <FreeSearch search={search} onSearchChange={change} />
      </div>
    </StaffLayout>
  );
}
