import { CalendarDays, Inbox, KeyRound, LogOut, Menu, Settings } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { BrandLogo } from '@/components/brand-logo';
import { ThemeToggle } from '@/components/theme-toggle';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Separator } from '@/components/ui/separator';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from '@/components/ui/sheet';
import { TooltipProvider } from '@/components/ui/tooltip';
import { useAuth } from '@/features/auth/auth-provider';
import { cn } from '@/lib/utils';
import { DeviceStatus } from '../device-status';

const NAV_ITEMS = [
  { href: '/', label: 'Availability Calendar', Icon: CalendarDays },
  { href: '/offers', label: 'Offers', Icon: Inbox },
] as const;

/**
 * The signed-in facilitator shell: header with the welcome line and user
 * menu; a side panel with navigation, settings, Sign Out and the page's own panel (the calendar legend);
 * on small screens the side panel opens as a left drawer from the menu button; footer.
 * Tooltips are provided here rather than app-wide: only signed-in pages have any.
 */
export function AppLayout(props: Parameters<typeof AppLayoutFrame>[0]) {
  return (
    <TooltipProvider>
      <AppLayoutFrame {...props} />
    </TooltipProvider>
  );
}

function AppLayoutFrame({ children, panel }: { children: ReactNode; panel?: ReactNode }) {
  const { user, logoutMutation } = useAuth();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const name = user?.displayName?.trim() || 'User';
  const initial = name.charAt(0).toUpperCase();

  return (
    <div className="flex min-h-dvh flex-col">
      <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
        <div className="flex h-16 items-center justify-between gap-2 px-3 sm:px-6">
          <div className="flex min-w-0 items-center gap-1">
            <Button
              variant="ghost"
              size="icon"
              className="lg:hidden"
              aria-label="Open navigation menu"
              aria-expanded={drawerOpen}
              onClick={() => setDrawerOpen(true)}
            >
              <Menu aria-hidden />
            </Button>
            <Link
              href="/"
              className="rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
            >
              <BrandLogo collapse />
            </Link>
          </div>
          <div className="flex min-w-0 items-center gap-1 sm:gap-3">
            <ThemeToggle />
            <span className="truncate text-sm" data-testid="welcome">
              Welcome, <span className="font-medium">{name}</span>
            </span>
            <DropdownMenu>
              <DropdownMenuTrigger
                aria-label="Open user menu"
                data-testid="user-menu"
                className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary font-semibold text-primary-foreground text-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
              >
                <span aria-hidden>{initial}</span>
              </DropdownMenuTrigger>
              <DropdownMenuContent align="end" className="w-56">
                <DropdownMenuLabel className="grid gap-0.5">
                  <span className="truncate">{name}</span>
                  <span className="truncate font-normal text-muted-foreground text-xs">{user?.username}</span>
                </DropdownMenuLabel>
                <DropdownMenuSeparator />
                <DropdownMenuItem asChild>
                  <Link href="/change-password">
                    <KeyRound aria-hidden />
                    Change Password
                  </Link>
                </DropdownMenuItem>
                <DropdownMenuItem
                  disabled={logoutMutation.isPending}
                  onSelect={() => logoutMutation.mutate()}
                >
                  <LogOut aria-hidden />
                  Logout
                </DropdownMenuItem>
              </DropdownMenuContent>
            </DropdownMenu>
          </div>
        </div>
      </header>
      <DeviceStatus />

      <div className="flex flex-1">
        <aside aria-label="Side panel" className="hidden w-64 shrink-0 border-r bg-muted/30 lg:block">
          <div className="sticky top-16 max-h-[calc(100dvh-4rem)] overflow-y-auto">
            <SidePanel panel={panel} />
          </div>
        </aside>
        <Sheet open={drawerOpen} onOpenChange={setDrawerOpen}>
          <SheetContent aria-describedby={undefined}>
            <SheetHeader className="border-b">
              <SheetTitle>Menu</SheetTitle>
              <SheetDescription className="sr-only">Navigation and calendar legend</SheetDescription>
            </SheetHeader>
            <SidePanel panel={panel} onNavigate={() => setDrawerOpen(false)} />
          </SheetContent>
        </Sheet>
        <div className="flex min-w-0 flex-1 flex-col">
          <main className="w-full flex-1 px-3 py-6 sm:px-6">{children}</main>
          {panel ? (
            // on small screens the panel (legend) also sits under the page, without opening the drawer
            <div className="border-t px-3 py-4 sm:px-6 lg:hidden" data-testid="mobile-panel">
              {panel}
            </div>
          ) : null}
          <footer className="border-t px-3 py-4 text-center text-muted-foreground text-xs sm:px-6">
            © {new Date().getFullYear()} Arts Facilitator Portal · Facilitator Availability Calendar
          </footer>
        </div>
      </div>
    </div>
  );
}

function SidePanel({ panel, onNavigate }: { panel?: ReactNode; onNavigate?: () => void }) {
  const [location] = useLocation();
  const { logoutMutation } = useAuth();
  const linkClass = (active: boolean) =>
    cn(
      'flex items-center gap-2 rounded-md px-3 py-2 font-medium text-sm outline-none transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:pointer-events-none disabled:opacity-50',
      active
        ? 'bg-primary text-primary-foreground hover:bg-primary/90'
        : 'hover:bg-accent hover:text-accent-foreground',
    );

  return (
    <div className="flex flex-col gap-4 p-4">
      <nav aria-label="Main" className="grid gap-1">
        {NAV_ITEMS.map(({ href, label, Icon }) => (
          <Link
            key={href}
            href={href}
            aria-current={location === href ? 'page' : undefined}
            className={linkClass(location === href)}
            onClick={onNavigate}
          >
            <Icon className="size-4" aria-hidden />
            {label}
          </Link>
        ))}
        <Link
          href="/settings"
          aria-current={location === '/settings' ? 'page' : undefined}
          className={linkClass(location === '/settings')}
          onClick={onNavigate}
        >
          <Settings className="size-4" aria-hidden />
          Settings
        </Link>
        <button
          type="button"
          className={linkClass(false)}
          disabled={logoutMutation.isPending}
          onClick={() => logoutMutation.mutate()}
        >
          <LogOut className="size-4" aria-hidden />
          {logoutMutation.isPending ? 'Signing out...' : 'Sign Out'}
        </button>
      </nav>
      {panel ? (
        <>
          <Separator />
          {panel}
        </>
      ) : null}
    </div>
  );
}
