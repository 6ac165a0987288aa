import type { LucideIcon } from 'lucide-react';
import { ArrowLeft } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';

export interface StaffPageLink {
  href: string;
  label: string;
  Icon: LucideIcon;
}

/** The row atop every staff page other than the dashboard: the way back, then the page's own links. */
export function StaffPagesNav({ links }: { links: StaffPageLink[] }) {
  return (
    <nav aria-label="Staff pages" className="flex flex-wrap items-center gap-2">
      <Button variant="ghost" size="sm" asChild>
        <Link href="/staff">
          <ArrowLeft aria-hidden />
          Back to Dashboard
        </Link>
      </Button>
      {links.map(({ href, label, Icon }) => (
        <Button key={label} variant="outline" size="sm" asChild>
          <Link href={href}>
            <Icon aria-hidden />
            {label}
          </Link>
        </Button>
      ))}
    </nav>
  );
}
