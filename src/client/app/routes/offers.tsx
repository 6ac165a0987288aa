import { AvailabilityLegend } from '@/features/availability-calendar';
import { MyOffers, OFFER_LEGEND_ENTRY } from '@/features/offers';
import { SafeguardingNotice } from '@/features/safeguarding';
import { AppLayout } from '../layouts/app-layout';

/** /offers: the sessions offered to the signed-in facilitator. */
export default function OffersRoute() {
  return (
    <AppLayout panel={<AvailabilityLegend extra={[OFFER_LEGEND_ENTRY]} />}>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
        <h1 className="font-semibold text-2xl tracking-tight">Offers</h1>
        <p className="text-muted-foreground">
          Sessions the team would like you to take. Accept or decline each before its reply-by time.
        </p>
        <SafeguardingNotice />
        <MyOffers />
      </div>
    </AppLayout>
  );
}
