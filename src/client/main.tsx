import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { config } from 'zod/mini';
import { App } from './app/app';
import './index.css';
import { queryClient } from './lib/query-client';
import { startServiceWorker } from './lib/service-worker';

// Zod's full build compiles object parsers with `new Function` when it may; to find out, it tries
// one as a schema is built, which the portal's content security policy (no 'unsafe-eval') refuses
// and the browser reports on the page. Zod's documented setting for such pages turns that off. It
// runs before any page's code is loaded: the main script builds only mini schemas, which never compile.
config({ jitless: true });

const container = document.getElementById('root');
if (!container) throw new Error('Root element #root is missing from index.html');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// the installable app and its offline copy (docs/decisions/0101-installable-app-and-facilitators-days-offline.md)
startServiceWorker(() => void queryClient.refetchQueries());
