import { isDateString } from '@shared/calendar';
import { useSearch } from 'wouter';
import { useAuth } from '@/features/auth/auth-provider';
import { AvailabilityCalendar, AvailabilityLegend } from '@/features/availability-calendar';
import { DownloadAvailability } from '@/features/exports';
import { MyHistory } from '@/features/history';
import { OFFER_LEGEND_ENTRY, useOfferMarks } from '@/features/offers';
import { RepeatPattern } from '@/features/patterns';
import { SafeguardingNotice } from '@/features/safeguarding';
import { AppLayout } from '../layouts/app-layout';

/** Facilitator home: the availability calendar in the facilitator layout, legend in the side panel. */
export default function HomeRoute() {
  const { user } = useAuth();
  const offers = useOfferMarks();
  // a notification's link opens the calendar at the session's day: /?date=YYYY-MM-DD
  const date = new URLSearchParams(useSearch()).get('date');
  return (
    <AppLayout panel={<AvailabilityLegend extra={[OFFER_LEGEND_ENTRY]} />}>
      {/* the route guard renders this only with a user */}
      {user && user.role !== 'staff' ? (
        <div className="mb-4">
          <SafeguardingNotice />
        </div>
      ) : null}
      {user ? (
        <AvailabilityCalendar
          userId={user.id}
          openAt={isDateString(date) ? date : undefined}
          neverMarked={!user.lastAvailabilityUpdatedAt}
          dayExtra={offers.mark}
          toolbarActions={
            <>
              <RepeatPattern userId={user.id} />
              <DownloadAvailability />
              <MyHistory userId={user.id} />
            </>
          }
        />
      ) : null}
      {offers.dialog}
    </AppLayout>
  );
}
