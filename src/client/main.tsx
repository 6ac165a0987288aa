import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { config } from 'zod/mini';
import { App } from './app/app';
import './index.css';
import { catchInstallPrompt } from './lib/install-prompt';
import { queryClient } from './lib/query-client';
import { queryKeys } from './lib/query-keys';
import { startServiceWorker } from './lib/service-worker';

// Zod's full build compiles object parsers with `new Function` when it may; to find out, it tries
// one as a schema is built, which the portal's content security policy (no 'unsafe-eval') refuses
// and the browser reports on the page. Zod's documented setting for such pages turns that off. It
// runs before any page's code is loaded: the main script builds only mini schemas, which never compile.
config({ jitless: true });

// the browser's offer to install the portal comes once per page load, maybe before any page that shows it
catchInstallPrompt();

const container = document.getElementById('root');
if (!container) throw new Error('Root element #root is missing from index.html');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// the installable app and its offline copy (docs/decisions/0101-installable-app-and-facilitators-days-offline.md)
// The first time the worker takes over a page, the page's reads have already gone past it: a
// facilitator's are read again so the worker keeps them for offline use. Staff reads are never kept,
// so a staff page (the dashboard's grid above all) is not read twice.
startServiceWorker(() => {
  const person = queryClient.getQueryData<{ role: string } | null>(queryKeys.session.all);
  if (person?.role !== 'staff') void queryClient.refetchQueries();
});
