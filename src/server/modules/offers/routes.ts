import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse, idParam } from '../../../shared/schemas/common';
import { freeResult } from '../../../shared/schemas/free';
import {
  candidatesQuery,
  createOffersBody,
  createOffersResponse,
  createSessionBody,
  declineBody,
  declineByLinkBody,
  myOffer,
  myOffersQuery,
  offerLinkBody,
  offerLinkView,
  openSessionsQuery,
  openSessionsResponse,
  staffOffer,
} from '../../../shared/schemas/offers';
import type { AppContext } from '../../context';
import { currentUser } from '../../http/access';
import { acceptOffer, answerByLink, declineOffer, markSeen, readLink, withdrawOffer } from './answers';
import { createOffers } from './making';
import { listMyOffers, listSessionOffers, sessionCandidates } from './service';
import { createSession, listOpenSessions } from './sessions';

const staffErrors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const writeErrors = { ...staffErrors, 409: errorResponse };
const linkErrors = { 400: errorResponse, 404: errorResponse, 409: errorResponse, 410: errorResponse };

/** Open sessions, offers of them, and the facilitators' answers (in the portal or by email link). */
export function offerRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // --- staff ---
    app.get(
      '/api/staff/sessions',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['offers'],
          summary:
            'Open sessions (bookings without a facilitator) from today or in a range, and sessions on their way to SharePoint',
          querystring: openSessionsQuery,
          response: { 200: openSessionsResponse, ...staffErrors },
        },
      },
      (request) => listOpenSessions(ctx, request.query),
    );

    app.post(
      '/api/staff/sessions',
      {
        config: { access: 'staff', rateLimit: ctx.limits.rateLimit('sessionCreate') },
        schema: {
          tags: ['offers'],
          summary:
            'Create a session in the SharePoint Bookings list (through the outbox); it appears as open after the next refresh',
          body: createSessionBody,
          response: { 201: z.object({ id: z.number().int() }), ...writeErrors },
        },
      },
      async (request, reply) => {
        const id = await createSession(ctx, request.body, currentUser(request).id);
        return reply.code(201).send({ id });
      },
    );

    app.get(
      '/api/staff/sessions/:id/candidates',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['offers'],
          summary:
            "Who is free for the session's day and times, everyone listed and ranked, a page at a time",
          description:
            'Without cursor or limit, the whole ranked list; with either, one page of it after the row the ' +
            'cursor names (nextCursor asks for the next). search keeps those whose name, email or area holds it.',
          params: idParam,
          querystring: candidatesQuery,
          response: { 200: freeResult, ...staffErrors },
        },
      },
      (request) => sessionCandidates(ctx, request.params.id, request.query),
    );

    app.get(
      '/api/staff/sessions/:id/offers',
      {
        config: { access: 'staff', list: 'small' },
        schema: {
          tags: ['offers'],
          summary: 'Every offer of a session, with its state',
          params: idParam,
          response: { 200: z.array(staffOffer), ...staffErrors },
        },
      },
      (request) => listSessionOffers(ctx, request.params.id),
    );

    app.post(
      '/api/staff/sessions/:id/offers',
      {
        config: { access: 'staff', rateLimit: ctx.limits.rateLimit('offers') },
        schema: {
          tags: ['offers'],
          summary:
            'Offer an open session to facilitators (portal and email); the unavailable or already booked need confirmNotFree, those whose safeguarding checks do not allow sending need safeguardingOverride',
          params: idParam,
          body: createOffersBody,
          response: { 201: createOffersResponse, ...writeErrors },
        },
      },
      async (request, reply) => {
        const created = await createOffers(ctx, request.params.id, request.body, currentUser(request).id);
        return reply.code(201).send({ offers: created });
      },
    );

    app.post(
      '/api/staff/offers/:id/withdraw',
      {
        config: { access: 'staff', rateLimit: ctx.limits.rateLimit('offerWithdraw') },
        schema: {
          tags: ['offers'],
          summary: 'Withdraw an offer still waiting for an answer; the facilitator is told',
          params: idParam,
          response: { 200: staffOffer, ...writeErrors },
        },
      },
      (request) => withdrawOffer(ctx, request.params.id, currentUser(request).id),
    );

    // --- the facilitator's own offers ---
    app.get(
      '/api/offers',
      {
        config: { access: 'user', list: 'small' },
        schema: {
          tags: ['offers'],
          summary: "The signed-in user's offers, optionally of sessions in a date range",
          querystring: myOffersQuery,
          response: { 200: z.array(myOffer), ...staffErrors },
        },
      },
      (request) => listMyOffers(ctx, currentUser(request).id, request.query),
    );

    app.post(
      '/api/offers/:id/seen',
      {
        config: { access: 'user', rateLimit: ctx.limits.rateLimit('offerAnswers') },
        schema: {
          tags: ['offers'],
          summary: 'Mark one of your offers seen',
          params: idParam,
          response: { 200: myOffer, ...writeErrors },
        },
      },
      (request) => markSeen(ctx, request.params.id, currentUser(request).id),
    );

    app.post(
      '/api/offers/:id/accept',
      {
        config: { access: 'user', rateLimit: ctx.limits.rateLimit('offerAnswers') },
        schema: {
          tags: ['offers'],
          summary: 'Accept one of your offers; the first acceptance of a session wins, later ones get 409',
          params: idParam,
          response: { 200: myOffer, ...writeErrors },
        },
      },
      (request) => acceptOffer(ctx, request.params.id, currentUser(request).id, 'facilitator'),
    );

    app.post(
      '/api/offers/:id/decline',
      {
        config: { access: 'user', rateLimit: ctx.limits.rateLimit('offerAnswers') },
        schema: {
          tags: ['offers'],
          summary: 'Decline one of your offers, with an optional reason',
          params: idParam,
          body: declineBody,
          response: { 200: myOffer, ...writeErrors },
        },
      },
      (request) =>
        declineOffer(ctx, request.params.id, currentUser(request).id, request.body.reason, 'facilitator'),
    );

    // --- the email link: the signed token is the only credential, good for one offer, once. It
    // travels in the body, never in the path or query, which proxies and request logs record. ---
    app.post(
      '/api/offer-links/view',
      {
        config: { access: 'public', rateLimit: ctx.limits.rateLimit('offerLinks') },
        schema: {
          tags: ['offers'],
          summary: 'The offer an email link is for; changes nothing',
          body: offerLinkBody,
          response: { 200: offerLinkView, ...linkErrors },
        },
      },
      async (request) => (await readLink(ctx, request.body.token)).view,
    );

    app.post(
      '/api/offer-links/accept',
      {
        config: { access: 'public', rateLimit: ctx.limits.rateLimit('offerLinks') },
        schema: {
          tags: ['offers'],
          summary: "Accept the link's offer; the link is used up",
          body: offerLinkBody,
          response: { 200: myOffer, ...linkErrors },
        },
      },
      (request) => answerByLink(ctx, request.body.token, { accept: true }),
    );

    app.post(
      '/api/offer-links/decline',
      {
        config: { access: 'public', rateLimit: ctx.limits.rateLimit('offerLinks') },
        schema: {
          tags: ['offers'],
          summary: "Decline the link's offer, with an optional reason; the link is used up",
          body: declineByLinkBody,
          response: { 200: myOffer, ...linkErrors },
        },
      },
      (request) => answerByLink(ctx, request.body.token, { accept: false, reason: request.body.reason }),
    );
  };
}
