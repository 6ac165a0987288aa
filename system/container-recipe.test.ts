/**
 * The container recipe, followed without a container engine: the Dockerfile's stages are read and
 * their instructions carried out on a clean copy of the tree (the files git tracks), each stage in a
 * directory of its own standing for its /app; then the image's command starts the portal and the
 * image's health check must pass. compose.yaml is validated against the Compose specification's
 * schema (dclint ships it) and checked for what the recipe promises.
 *
 * Two steps are not carried out, and are checked instead: the build stage's full `npm ci` (the
 * development dependencies, the size of this project's own node_modules, which the same lockfile
 * already installed: the stage links to it) and the final stage's `mkdir`/`chown` of /data (no root
 * here; the portal gets a temporary DATA_DIR instead). The production stage's `npm ci --omit=dev`
 * runs for real, from npm's cache only (no registry is reached), so the portal below starts on
 * production dependencies only.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DCLinter } from 'dclint';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { freePort } from './support/net';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'afp-recipe-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  name: string;
  instructions: Instruction[];
}

/** The Dockerfile's stages: continuation lines joined, comments left out. */
function readStages(text: string): Stage[] {
  const lines = text.replace(/\\\n\s*/g, ' ').split('\n');
  const stages: Stage[] = [];
  for (const line of lines.map((l) => l.trim())) {
    if (!line || line.startsWith('#')) continue;
    const [, op = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (op === 'FROM') {
      stages.push({ name: / AS (\S+)$/i.exec(args)?.[1] ?? 'final', instructions: [] });
      continue;
    }
    stages.at(-1)!.instructions.push({ op, args });
  }
  return stages;
}

/** A clean copy of the tree: the files git tracks, as they are in the work tree. */
function cleanCopy(): string {
  const context = join(work, 'context');
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0');
  for (const file of files.filter(Boolean)) {
    if (!existsSync(join(root, file))) continue; // deleted in the work tree, not yet committed
    mkdirSync(dirname(join(context, file)), { recursive: true });
    cpSync(join(root, file), join(context, file));
  }
  return context;
}

const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
const stages = readStages(dockerfile);
const final = stages.at(-1)!;

describe('the Dockerfile', () => {
  it('builds in stages and runs as an unprivileged user, checking the ready probe', () => {
    expect(stages.map((stage) => stage.name)).toEqual(['build', 'deps', 'final']);
    const ops = final.instructions.map((i) => `${i.op} ${i.args}`);
    const user = final.instructions.findLast((i) => i.op === 'USER');
    expect(user?.args).toBe('node');
    expect(ops.findIndex((op) => op.startsWith('USER'))).toBeLessThan(
      ops.findIndex((op) => op.startsWith('CMD')),
    );
    expect(ops.find((op) => op.startsWith('HEALTHCHECK'))).toContain('/api/health/ready');
    // the final stage installs nothing itself: its dependencies are the production stage's
    expect(ops.filter((op) => op.startsWith('RUN npm'))).toEqual([]);
    expect(stages[1]!.instructions.find((i) => i.op === 'RUN')?.args).toMatch(/^npm ci --omit=dev\b/);
  });

  it('its commands, on a clean copy of the tree, make a portal that starts and passes its health check', async () => {
    const context = cleanCopy();
    const stageDirs = new Map<string, string>();
    let env: Record<string, string> = {};
    let command: string[] = [];
    let healthCheck: string[] = [];
    const dataDir = join(work, 'data');
    mkdirSync(dataDir);
    // As BuildKit does, stages that need nothing from each other are built side by side (here the
    // client's build and the production install); a `COPY --from` waits for the stage it names.
    const built = new Map<string, Promise<void>>();
    const runStage = async (stage: Stage) => {
      const dir = join(work, stage.name);
      mkdirSync(dir);
      stageDirs.set(stage.name, dir);
      // the image's paths, here: its /app is the stage's directory, its /data a temporary one
      const local = (path: string) => path.replace(/^\/app(?=\/|$)/, dir).replace(/^\/data(?=\/|$)/, dataDir);
      const stageEnv: Record<string, string> = {};
      for (const { op, args } of stage.instructions) {
        if (op === 'WORKDIR') expect(args).toBe('/app');
        else if (op === 'ENV') {
          for (const [, name, value] of args.matchAll(/(\w+)=(\S+)/g)) stageEnv[name!] = local(value!);
        } else if (op === 'COPY') {
          const from = /^--from=(\S+)\s+/.exec(args);
          if (from) await built.get(from[1]!);
          const parts = args.replace(/^--from=\S+\s+/, '').split(/\s+/);
          const target = resolve(dir, parts.pop()!);
          const source = from ? stageDirs.get(from[1]!)! : context;
          for (const part of parts) {
            const path = from ? part.replace(/^\/app(?=\/|$)/, source) : join(source, part);
            const into = parts.length > 1 || part === '.' ? join(target, part === '.' ? '' : part) : target;
            cpSync(path, part === '.' ? target : into, { recursive: true, verbatimSymlinks: true });
          }
        } else if (op === 'RUN') {
          if (/^npm ci(?!.*--omit=dev)/.test(args)) {
            // the development dependencies: the same lockfile's, already installed
            symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
          } else if (/^mkdir -p \/data && chown node:node \/data$/.test(args)) {
            // needs root: the portal below gets its own DATA_DIR
          } else {
            // npm from its cache only (filled by this checkout's own install): tests reach no registry
            await run('sh', ['-c', args], {
              cwd: dir,
              env: { ...process.env, ...stageEnv, npm_config_offline: 'true' },
            });
          }
        } else if (op === 'CMD') command = JSON.parse(args) as string[];
        else if (op === 'HEALTHCHECK') healthCheck = JSON.parse(args.replace(/^.*?CMD\s+/, '')) as string[];
      }
      if (stage === final) env = stageEnv;
    };
    for (const stage of stages) built.set(stage.name, runStage(stage));
    await Promise.all(built.values());
    const image = stageDirs.get('final')!;
    // production dependencies only
    expect(existsSync(join(image, 'node_modules', 'fastify'))).toBe(true);
    for (const development of ['vite', 'vitest', '@playwright/test', 'typescript'])
      expect(existsSync(join(image, 'node_modules', development))).toBe(false);
    expect(existsSync(join(image, 'dist', 'client', 'index.html'))).toBe(true);

    const port = await freePort();
    const runEnv: Record<string, string | undefined> = {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    };
    const [program, ...args] = command;
    expect(program).toBe('node');
    const portal: ChildProcess = spawn(process.execPath, args, {
      cwd: image,
      env: runEnv,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((done) => portal.on('exit', (code) => done(code)));
    try {
      await new Promise<void>((started, failed) => {
        let output = '';
        portal.stdout!.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('running at')) started();
        });
        void exited.then((code) => failed(new Error(`the portal exited (${code}):\n${output}`)));
      });
      const [checkProgram, ...checkArgs] = healthCheck;
      expect(checkProgram).toBe('node');
      execFileSync(process.execPath, checkArgs, { cwd: image, env: runEnv, stdio: 'inherit' });
      const page = await fetch(`http://127.0.0.1:${port}/staff-login`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      portal.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      portal.kill('SIGKILL');
    }
  }, 900_000);
});

describe('compose.yaml', () => {
  const file = join(root, 'compose.yaml');

  it('is valid against the Compose specification, with no linter errors', () => {
    const linter = new DCLinter({ rules: {}, exclude: [], debug: false, quiet: true });
    const [result] = linter.lintFiles([file], false);
    expect(result!.messages.filter((message) => message.type === 'error')).toEqual([]);
  });

  it('waits for a healthy PostgreSQL, migrates once, and runs two portals behind a TLS proxy', () => {
    const compose = parse(readFileSync(file, 'utf8'), { merge: true }) as {
      services: Record<
        string,
        Record<string, unknown> & { depends_on?: Record<string, { condition: string }> }
      >;
    };
    const { db, migrate, proxy } = compose.services;
    expect((db!.healthcheck as { test: string[] }).test).toContain('pg_isready');
    expect(migrate!.depends_on).toEqual({ db: { condition: 'service_healthy' } });
    expect(migrate!.command).toEqual(['node', '--import', 'tsx', 'scripts/migrate.ts']);
    for (const name of ['portal-1', 'portal-2']) {
      const portal = compose.services[name]!;
      expect(portal.depends_on).toEqual({
        db: { condition: 'service_healthy' },
        migrate: { condition: 'service_completed_successfully' },
      });
      expect(portal.environment).toMatchObject({ MIGRATE_AT_START: 'false', COOKIE_SECURE: 'true' });
      expect(portal.ports).toBeUndefined();
    }
    expect(proxy!.ports).toEqual(['0.0.0.0:80:80', '0.0.0.0:443:443']);
    const caddyfile = readFileSync(join(root, 'deploy', 'Caddyfile'), 'utf8');
    expect(caddyfile).toMatch(/reverse_proxy portal-1:5000 portal-2:5000/);
    expect(caddyfile).toContain('health_uri /api/health/ready');
  });
});
