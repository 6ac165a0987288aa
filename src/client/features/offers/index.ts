export { offersKeys } from './api/offers-api';
export { closedReason as offerClosedReason, MyOffers, OfferAnswerDialog } from './components/my-offers';
export { OfferLinkPage } from './components/offer-link-page';
export { OFFER_LEGEND_ENTRY, useOfferMarks } from './components/offer-marks';
export { OpenSessions } from './components/open-sessions';
