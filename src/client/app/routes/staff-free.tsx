import { ArrowLeft, Users } from 'lucide-react';
import { Link, useLocation, useSearch } from 'wouter';
import { Button } from '@/components/ui/button';
import { FreeSearch } from '@/features/free/components/free-search';
import { type FreeSearchState, searchFromAddress, searchQueryString } from '@/features/free/lib/free-model';
import { StaffLayout } from '../layouts/staff-layout';

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
        <nav aria-label="Staff pages" className="flex flex-wrap items-center gap-2">
          <Button variant="ghost" size="sm" asChild>
            <Link href="/staff">
              <ArrowLeft aria-hidden />
              Back to Dashboard
            </Link>
          </Button>
          <Button variant="outline" size="sm" asChild>
            <Link href="/staff/users">
              <Users aria-hidden />
              Manage Users
            </Link>
          </Button>
        </nav>
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
