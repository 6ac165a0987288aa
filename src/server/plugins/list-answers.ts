import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { createListAnswers, type ListAnswers, requireListDecision } from '../http/list-answers';

declare module 'fastify' {
  interface FastifyInstance {
    /** list answers: 304 while the versions of what they read are unchanged (ADR 81) */
    lists: ListAnswers;
  }
}

const listAnswersPlugin: FastifyPluginAsync = async (app) => {
  app.decorate('lists', createListAnswers(app.database.db));
  // every GET answering a list says how it sends it, or the app does not start
  app.addHook('onRoute', requireListDecision);
};

export default fp(listAnswersPlugin, { name: 'list-answers', dependencies: ['database'] });
