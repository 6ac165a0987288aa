import type { MyOffer } from '@shared/schemas/offers';
import { Inbox } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useMyOffers } from '../api/offers-api';
import { dayLabel, isOpen, placeOf } from '../lib/offer-format';
import { OfferAnswerDialog } from './my-offers';

/** The legend's key to the mark below: a dashed outline in the primary colour. */
export const OFFER_LEGEND_ENTRY = {
  label: 'Offer',
  swatch: 'rounded-[3px] border border-primary border-dashed',
};

/**
 * Offers waiting for an answer, as marks on the facilitator's calendar days: a dashed chip, unlike a
 * booking's solid one, that opens the answer dialog. Returns the mark for a day and the dialog.
 */
export function useOfferMarks() {
  const query = useMyOffers();
  const [open, setOpen] = useState<MyOffer | null>(null);
  const byDate = useMemo(() => {
    const map = new Map<string, MyOffer[]>();
    for (const offer of query.data ?? []) {
      if (!isOpen(offer)) continue;
      map.set(offer.date, [...(map.get(offer.date) ?? []), offer]);
    }
    return map;
  }, [query.data]);

  const mark = (date: string, tabbable: boolean) => {
    const offers = byDate.get(date);
    if (!offers) return null;
    return (
      <ul className="grid min-w-0 gap-0.5">
        {offers.map((offer) => (
          <li key={offer.id} className="min-w-0">
            <button
              type="button"
              data-testid="offer-mark"
              tabIndex={tabbable ? 0 : -1}
              aria-label={`Offer: ${placeOf(offer)} on ${dayLabel(offer.date)}. Answer it`}
              className="flex w-full min-w-0 items-center gap-1 rounded-sm border border-primary border-dashed px-1 text-left text-[11px] text-primary leading-4 outline-none hover:bg-primary/10 focus-visible:ring-[3px] focus-visible:ring-ring/60"
              onClick={(event) => {
                event.stopPropagation();
                setOpen(offer);
              }}
              onKeyDown={(event) => event.stopPropagation()}
            >
              <Inbox aria-hidden className="size-3 shrink-0" />
              <span className="truncate">
                Offer: {offer.schoolName?.trim() || offer.title.trim() || 'session'}
              </span>
            </button>
          </li>
        ))}
      </ul>
    );
  };
  const dialog = open ? <OfferAnswerDialog offer={open} onClose={() => setOpen(null)} /> : null;
  return { mark, dialog };
}
