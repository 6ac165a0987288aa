import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  sideEffects?: string[];
};

/** Every client and shared module the client build can take in (tests and their helpers are not). */
function clientModules(): string[] {
  const testHelpers = join(root, 'src/client/test');
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (path === testHelpers) return [];
      if (entry.isDirectory()) return walk(path);
      return /\.tsx?$/.test(entry.name) && !/\.(test|d)\.tsx?$/.test(entry.name) ? [path] : [];
    });
  return [...walk(join(root, 'src/client')), ...walk(join(root, 'src/shared'))];
}

/**
 * Top-level statements that do something when the module is evaluated, rather than declare what it
 * exports: a call, an assignment, an `if`, `export default` of a call, a class's static block. A
 * declaration's initialiser may call a function too (`createContext()`), but the bundler keeps it
 * whenever the name is used, which is all it is for.
 */
function topLevelEffects(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const declares = (statement: ts.Statement) =>
    (ts.isImportDeclaration(statement) && statement.importClause !== undefined) ||
    ts.isExportDeclaration(statement) ||
    (ts.isExportAssignment(statement) && !ts.isCallExpression(statement.expression)) ||
    ts.isFunctionDeclaration(statement) ||
    (ts.isClassDeclaration(statement) && !statement.members.some(ts.isClassStaticBlockDeclaration)) ||
    ts.isInterfaceDeclaration(statement) ||
    ts.isTypeAliasDeclaration(statement) ||
    ts.isEnumDeclaration(statement) ||
    ts.isModuleDeclaration(statement) ||
    ts.isVariableStatement(statement);
  return source.statements
    .filter((statement) => !declares(statement))
    .map((statement) => statement.getText(source).split('\n')[0]!);
}

/** A bare import's module as package.json names it; null for a package's (its own sideEffects say). */
function listedPathOf(file: string, specifier: string): string | null {
  const aliases: Record<string, string> = { '@/': 'src/client/', '@shared/': 'src/shared/' };
  const alias = Object.keys(aliases).find((prefix) => specifier.startsWith(prefix));
  if (alias) return `./${aliases[alias]}${specifier.slice(alias.length)}`;
  if (!specifier.startsWith('.')) return null;
  return `./${relative(root, join(file, '..', specifier))}`;
}

describe("package.json's sideEffects, which lets the client build leave out modules nothing uses", () => {
  const listed = (packageJson.sideEffects ?? []).filter((entry) => !entry.includes('*'));

  it('names exactly the client and shared modules whose top level does something when evaluated', () => {
    const withEffects = clientModules()
      .filter((file) => topLevelEffects(file).some((text) => !text.startsWith('import ')))
      .map((file) => `./${relative(root, file)}`)
      .sort();
    expect(withEffects.length).toBeGreaterThan(0);
    expect([...listed].sort()).toEqual(withEffects);
  });

  it('keeps stylesheets, which are imported only for what they do', () => {
    expect(packageJson.sideEffects).toContain('**/*.css');
  });

  it('is told about every module imported only for what it does', () => {
    const bareImports = clientModules().flatMap((file) =>
      topLevelEffects(file)
        .filter((text) => text.startsWith('import '))
        .map((text) => /['"]([^'"]+)['"]/.exec(text)![1]!)
        .filter((specifier) => !specifier.endsWith('.css'))
        .flatMap((specifier) => listedPathOf(file, specifier) ?? []),
    );
    // none today besides the stylesheets: a module imported for what it does must be listed
    const withoutExtension = (path: string) => path.replace(/\.tsx?$/, '');
    for (const module of bareImports) {
      expect(listed.map(withoutExtension)).toContain(withoutExtension(module));
    }
  });
});
