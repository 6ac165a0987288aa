import { setupServer } from 'msw/node';

/**
 * The API at the network edge for component tests: every request a component sends through fetch
 * reaches this server instead of the portal. It has no handlers of its own; each test names the
 * answers it needs with `server.use(http.get('/api/...', ...))`, and they are cleared after the test.
 * A request no handler answers fails the test (see setup.ts), so no test leans on an answer by chance.
 */
export const server = setupServer();
