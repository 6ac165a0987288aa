import { SIGNED_OUT_OF_PORTAL_ONLY } from '@shared/sign-in';
import { ChevronDown, KeyRound, LogOut, Settings } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { BrandLogo } from '@/components/brand-logo';
import { ThemeToggle } from '@/components/theme-toggle';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { TooltipProvider } from '@/components/ui/tooltip';
import { signOutHere } from '@/features/auth/api/auth-api';
import { DeviceStatus } from '../device-status';

async function signOutAndLeave() {
  try {
    const { microsoftSignOut } = await signOutHere();
    // a fresh page: nothing cached for the person stays in memory either
    window.location.assign(microsoftSignOut ? SIGNED_OUT_OF_PORTAL_ONLY : '/staff-login');
  } catch (error) {
    console.error('Logout failed:', error instanceof Error ? error.message : error);
  }
}

/**
 * The staff shell: brand, theme and a Logout button that signs out here (push on this device, the
 * session, then the device's kept data) and opens the staff login page as a new page, so nothing read
 * for the person stays in memory for whoever uses the browser next. Tooltips are provided here rather than app-wide: only signed-in pages have any.
 */
export function StaffLayout(props: Parameters<typeof StaffLayoutFrame>[0]) {
  return (
    <TooltipProvider>
      <StaffLayoutFrame {...props} />
    </TooltipProvider>
  );
}

function StaffLayoutFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
        <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-3 px-4 sm:px-6">
          <Link
            href="/staff"
            className="rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
          >
            <BrandLogo collapse />
          </Link>
          <div className="flex items-center gap-2">
            <ThemeToggle />
            <AccountMenu />
            <Button variant="outline" size="sm" onClick={signOutAndLeave}>
              <LogOut aria-hidden />
              Logout
            </Button>
          </div>
        </div>
      </header>
      <DeviceStatus />
      <main className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6">{children}</main>
    </div>
  );
}

/** Settings and the password, which staff pages had no way to reach. */
function AccountMenu() {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="sm" aria-label="Settings and password">
          <Settings aria-hidden />
          <span className="hidden sm:inline">Settings</span>
          <ChevronDown aria-hidden className="hidden sm:block" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem asChild>
          <Link href="/settings">
            <Settings aria-hidden />
            Settings
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link href="/change-password">
            <KeyRound aria-hidden />
            Change Password
          </Link>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
