export { MyOffers, OfferAnswerDialog } from './components/my-offers';
export { OfferLinkPage } from './components/offer-link-page';
export { useOfferMarks } from './components/offer-marks';
export { OpenSessions } from './components/open-sessions';
