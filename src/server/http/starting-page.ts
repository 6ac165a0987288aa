/**
 * What a page request gets while `npm start` is still building the client beside a server that is
 * already listening (docs/decisions/0027-start-serving-while-the-client-builds.md): a 503 that says
 * so and reloads itself. The API answers normally meanwhile.
 *
 * No script (the content security policy forbids inline scripts) and no `<meta http-equiv="refresh">`
 * (axe reports a timed refresh as a failure): the `Refresh` header reloads it.
 */
export const STARTING_RELOAD_SECONDS = 2;

export const STARTING_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>The portal is starting</title>
    <style>
      :root { color-scheme: light dark; }
      body { font-family: system-ui, sans-serif; margin: 0; min-height: 100dvh; display: grid; place-items: center; }
      main { max-width: 32rem; padding: 1.5rem; line-height: 1.5; }
      h1 { font-size: 1.5rem; margin: 0 0 0.5rem; }
    </style>
  </head>
  <body>
    <main>
      <h1>The portal is starting</h1>
      <p role="status">Its pages are being built. This page reloads by itself and opens the portal when they are ready, usually within a minute.</p>
    </main>
  </body>
</html>
`;
