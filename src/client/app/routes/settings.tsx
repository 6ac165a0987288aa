import { ArrowLeft, KeyRound } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useAuth } from '@/features/auth/auth-provider';
import { CalendarFeedCard } from '@/features/calendar-feed';
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
      <div className="mx-auto grid w-full max-w-4xl gap-6">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="grid gap-1">
            <h1 className="font-semibold text-2xl tracking-tight">SharePoint Settings</h1>
            <p className="text-muted-foreground text-sm">
              Connect the portal to your organisation's SharePoint site and lists.
            </p>
          </div>
          {back}
        </div>
        <SharePointSettings backLink={back} />
        <EmailSettings />
        <SafeguardingPolicyCard />
        <MicrosoftSignInCard currentUserId={user?.id} />
      </div>
    </StaffLayout>
  );
}

function FacilitatorSettings() {
  return (
    <AppLayout>
      <div className="mx-auto grid w-full max-w-4xl gap-6">
        <div className="grid gap-1">
          <h1 className="font-semibold text-2xl tracking-tight">Settings</h1>
          <p className="text-muted-foreground text-sm">
            Your safeguarding checks, your calendar feed and your password.
          </p>
        </div>
        <OwnSafeguardingCard />
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
      </div>
    </AppLayout>
  );
}
