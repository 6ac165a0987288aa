import { ArrowLeft } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/features/auth/auth-provider';
import { CalendarFeedCard } from '@/features/calendar-feed';
import { EmailSettings } from '@/features/reminders/components/email-settings';
import { MicrosoftSignInCard } from '@/features/settings/components/microsoft-sign-in-card';
import { SharePointSettings } from '@/features/settings/components/sharepoint-settings';
import { AppLayout } from '../layouts/app-layout';

/** /settings (signed-in guard in the router); the server answers 403 to anyone but staff. */
export default function SettingsRoute() {
  const { user } = useAuth();
  const isStaff = user?.role === 'staff';
  const back = (
    <Button variant="outline" asChild>
      <Link href={isStaff ? '/staff' : '/'}>
        <ArrowLeft aria-hidden />
        {isStaff ? 'Back to Dashboard' : 'Back to Calendar'}
      </Link>
    </Button>
  );
  return (
    <AppLayout>
      <div className="mx-auto grid w-full max-w-4xl gap-6">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="grid gap-1">
            <h1 className="font-semibold text-2xl tracking-tight">SharePoint Settings</h1>
            <p className="text-muted-foreground text-sm">
              Connect the portal to your organisation's SharePoint site and lists.
            </p>
          </div>
          {isStaff ? back : null}
        </div>
        {/* facilitators' own setting first: the SharePoint part below is for staff */}
        {isStaff ? null : <CalendarFeedCard />}
        <SharePointSettings backLink={back} />
        {isStaff ? <EmailSettings /> : null}
        {isStaff ? <MicrosoftSignInCard currentUserId={user?.id} /> : null}
      </div>
    </AppLayout>
  );
}
