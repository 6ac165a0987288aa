/**
 * The import rules of the layout (docs/architecture.md; docs/decisions/0082), checked by
 * `npm run lint`. Server layers, lowest first:
 *
 *   foundation   src/server/*.ts files (config, errors, crypto, office hours …), src/shared
 *   db           src/server/db
 *   auth, mail   src/server/auth, src/server/mail
 *   sharepoint   src/server/sharepoint: an adapter; it sees db and the foundation, never a module
 *   http         src/server/http: request plumbing shared by the routes
 *   modules      src/server/modules: routes over services
 *   jobs         src/server/jobs: the one orchestrator; only the composition root starts it
 *   plugins      src/server/plugins, app.ts, serve.ts and main.ts: the composition root
 *
 * context.ts, the app context (every decorator in one object), sits beside the foundation but is
 * handed only to routes, jobs and the composition root: services take the fields they use.
 *
 * A layer imports only layers below it. Tests may reach anything (they drive the whole app).
 */
const notTest = '(\\.test\\.tsx?$|/test/|/test-support\\.ts$)';

/** from-path patterns of the server layers that must not import `to` */
function forbid(name, comment, from, to) {
  return { name, comment, severity: 'error', from: { path: from, pathNot: notTest }, to: { path: to } };
}

module.exports = {
  forbidden: [
    forbid(
      'shared-stays-shared',
      'src/shared runs on both sides: it imports neither the client nor the server.',
      '^src/shared/',
      '^src/(client|server|sharepoint-emulator)/',
    ),
    {
      name: 'shared-uses-no-node-or-server-package',
      comment: 'src/shared runs in the browser too: only zod and date-fns besides itself.',
      severity: 'error',
      from: { path: '^src/shared/', pathNot: notTest },
      to: { dependencyTypesNot: ['local', 'type-only'], pathNot: '^node_modules/(zod|date-fns|@date-fns)/' },
    },
    forbid(
      'client-not-server',
      'The client never imports server code or the emulator.',
      '^src/client/',
      '^src/(server|sharepoint-emulator)/',
    ),
    {
      name: 'client-no-node-builtins',
      comment: 'The client runs in the browser.',
      severity: 'error',
      from: { path: '^src/client/', pathNot: notTest },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'client-no-server-packages',
      comment: 'Server-only packages never reach the browser bundle.',
      severity: 'error',
      from: { path: '^src/client/', pathNot: notTest },
      to: {
        path: '^node_modules/(fastify|@fastify/|drizzle-orm|@electric-sql/pglite|pg/|@node-rs/|croner|nodemailer|exceljs)',
      },
    },
    {
      name: 'client-features-apart',
      comment: 'Client features never import each other; routes in src/client/app compose them.',
      severity: 'error',
      from: { path: '^src/client/features/([^/]+)/', pathNot: notTest },
      to: { path: '^src/client/features/([^/]+)/', pathNot: '^src/client/features/$1/' },
    },
    forbid(
      'foundation-is-the-floor',
      'src/server/*.ts (configuration, errors, crypto, office hours) is what every layer stands on: it ' +
        'imports only src/shared and itself. The configuration checks its values with three leaves that ' +
        'themselves import only the foundation: the certificate check, the sign-in throttle limits and ' +
        'the request budgets.',
      '^src/server/(?!app\\.ts$|main\\.ts$|serve\\.ts$|context\\.ts$)[^/]+\\.ts$',
      '^src/server/(?!(auth/client-certificate|auth/throttle|http/budgets)\\.ts$)[^/]+/|^src/server/(app|main|serve|context)\\.ts$',
    ),
    forbid(
      'services-take-what-they-use',
      'The app context goes to routes, jobs and the composition root only. A service names the fields ' +
        'it uses (a narrow type or plain arguments), so what it depends on can be read from its signature.',
      '^src/server/(?!.*routes\\.ts$|jobs/|plugins/|app\\.ts$)',
      '^src/server/context\\.ts$',
    ),
    forbid(
      'db-is-the-floor',
      'The database layer knows only the foundation and shared code.',
      '^src/server/db/',
      '^src/server/(auth|mail|http|sharepoint|modules|jobs|plugins)/|^src/server/(app|main|serve|context)\\.ts$',
    ),
    forbid(
      'auth-and-mail-below-features',
      'Passwords, sessions and the mail transport know nothing of routes, SharePoint or jobs.',
      '^src/server/(auth|mail)/',
      '^src/server/(http|sharepoint|modules|jobs|plugins)/|^src/server/(app|main|serve|context)\\.ts$',
    ),
    forbid(
      'sharepoint-is-an-adapter',
      'SharePoint is an adapter: callers hand it ports; it never imports a module, a job or the HTTP layer.',
      '^src/server/sharepoint/',
      '^src/server/(http|modules|jobs|plugins)/|^src/server/(app|main|serve|context)\\.ts$',
    ),
    forbid(
      'http-below-modules',
      'Request plumbing is shared by the routes and knows none of them.',
      '^src/server/http/',
      '^src/server/(modules|jobs|plugins)/|^src/server/(app|main|serve|context)\\.ts$',
    ),
    forbid(
      'modules-never-reach-jobs',
      'Modules offer work; jobs/ decides when it runs. Modules get job handles as decorators.',
      '^src/server/modules/',
      '^src/server/(jobs|plugins)/|^src/server/(app|main|serve)\\.ts$',
    ),
    forbid(
      'nothing-imports-jobs',
      'jobs/ is the one orchestrator: only the composition root (src/server/plugins) starts it.',
      '^src/server/(?!jobs/|plugins/|app\\.ts$)',
      '^src/server/jobs/',
    ),
    {
      name: 'no-cycles',
      comment:
        'A cycle makes two files one layer, type-only imports included; split what they share into the lower one.',
      severity: 'error',
      from: { path: '^src/(server|client|shared)/', pathNot: notTest },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
