import { ArrowLeft, KeyRound } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useAuth } from '@/features/auth/auth-provider';
import { CalendarFeedCard } from '@/features/calendar-feed';
import { OwnDataCard } from '@/features/data-protection';
import { NotificationsCard } from '@/features/notifications';
import { PasskeysCard, StaffSignInPolicyCard } from '@/features/passkeys';
import { EmailSettings } from '@/features/reminders/components/email-settings';
import { OwnSafeguardingCard, SafeguardingPolicyCard } from '@/features/safeguarding';
import { MicrosoftSignInCard } from '@/features/settings/components/microsoft-sign-in-card';
import { SharePointSettings } from '@/features/settings/components/sharepoint-settings';
import { AppLayout } from '../layouts/app-layout';
import { StaffLayout } from '../layouts/staff-layout';

/**
 * /settings (signed-in guard in the router). Staff get the SharePoint and email settings in the
 * staff shell; a facilitator gets what is theirs to set (the calendar feed, the password) rather
 * than a staff page they may not open.
 */
export default function SettingsRoute() {
  const { user } = useAuth();
  return user?.role === 'staff' ? <StaffSettings /> : <FacilitatorSettings />;
}

function StaffSettings() {
  const { user } = useAuth();
  const back = (
    <Button variant="outline" asChild>
      <Link href="/staff">
        <ArrowLeft aria-hidden />
        Back to Dashboard
      </Link>
    </Button>
  );
  return (
    <StaffLayout>
      <div className="mx-auto grid w-full max-w-4xl grid-cols-[minmax(0,1fr)] gap-6">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="grid gap-1">
            <h1 className="font-semibold text-2xl tracking-tight">Settings</h1>
            <p className="text-muted-foreground text-sm">
              The portal's connection to SharePoint, email, the safeguarding policy, Microsoft sign-in and
              notifications.
            </p>
          </div>
          {back}
        </div>
        <nav aria-label="Settings sections" className="rounded-lg border bg-muted/30 p-3">
          <ul className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
            {SECTIONS.map((section) => (
              <li key={section.id}>
                <a
                  href={`#${section.id}`}
                  className="font-medium text-primary underline-offset-4 hover:underline focus-visible:underline"
                >
                  {section.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <section id="sharepoint" aria-labelledby="sharepoint-heading" className={SECTION_CLASS}>
          <div className="grid gap-1">
            <h2 id="sharepoint-heading" className="font-semibold text-xl tracking-tight">
              SharePoint
            </h2>
            <p className="text-muted-foreground text-sm">
              Connect the portal to your organisation's SharePoint site and lists.
            </p>
          </div>
          <SharePointSettings backLink={back} />
        </section>
        <section id="email" aria-label="Email reminders" className={SECTION_CLASS}>
          <EmailSettings />
        </section>
        <section id="safeguarding-policy" aria-label="Safeguarding policy" className={SECTION_CLASS}>
          <SafeguardingPolicyCard />
        </section>
        <section id="microsoft-sign-in" aria-label="Sign in with Microsoft" className={SECTION_CLASS}>
          <MicrosoftSignInCard currentUserId={user?.id} />
        </section>
        <section id="passkeys" aria-label="Passkeys" className={SECTION_CLASS}>
          <PasskeysCard />
          <StaffSignInPolicyCard />
        </section>
        <section id="notifications" aria-label="Notifications" className={SECTION_CLASS}>
          <NotificationsCard staff />
        </section>
      </div>
    </StaffLayout>
  );
}

/** The staff settings page's sections, each reached from the list at its top. */
const SECTIONS = [
  { id: 'sharepoint', label: 'SharePoint' },
  { id: 'email', label: 'Email reminders' },
  { id: 'safeguarding-policy', label: 'Safeguarding policy' },
  { id: 'microsoft-sign-in', label: 'Sign in with Microsoft' },
  { id: 'passkeys', label: 'Passkeys' },
  { id: 'notifications', label: 'Notifications' },
] as const;

// a section jumped to starts below the sticky header
const SECTION_CLASS = 'grid scroll-mt-20 gap-6';

function FacilitatorSettings() {
  return (
    <AppLayout>
      <div className="mx-auto grid w-full max-w-4xl gap-6">
        <div className="grid gap-1">
          <h1 className="font-semibold text-2xl tracking-tight">Settings</h1>
          <p className="text-muted-foreground text-sm">
            Your safeguarding checks, notifications, your data, your calendar feed, your password and your
            passkeys.
          </p>
        </div>
        <OwnSafeguardingCard />
        <NotificationsCard />
        <OwnDataCard />
        <CalendarFeedCard />
        <Card>
          <CardHeader>
            <CardTitle>
              <h2>Password</h2>
            </CardTitle>
            <CardDescription>Change the password you sign in with.</CardDescription>
          </CardHeader>
          <CardContent>
            <Button variant="outline" asChild>
              <Link href="/change-password">
                <KeyRound aria-hidden />
                Change Password
              </Link>
            </Button>
          </CardContent>
        </Card>
        <PasskeysCard />
      </div>
    </AppLayout>
  );
}
