import { OfferLinkPage } from '@/features/offers';

/** /offer-link#<token>: the page an offer email links to; no sign-in needed, the token is the credential. */
export default function OfferLinkRoute() {
  const token = window.location.hash.replace(/^#/, '');
  return (
    <main className="flex min-h-dvh items-center justify-center bg-muted/50 px-4 py-8 dark:bg-background">
      <OfferLinkPage token={token} />
    </main>
  );
}
