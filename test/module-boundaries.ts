import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * Which module owns which table, and which modules read tables they do not own. A module owns the
 * tables declared (`pgTable('name', …)`) in its `tables.ts` or `<topic>-tables.ts` files, its
 * sub-folders included. A module reads another's table when one of its production files names it
 * in SQL (`from`, `join`, `into`, `update` followed by the table's name) or imports the drizzle
 * table from the other module's tables file. Every such table must be listed in the module's
 * README, on its line `- **Reads other modules' tables**: …` (backticked names, or `none`), so
 * the owner of a table can find every reader before renaming a column. Tables of `platform/`
 * (outbox, jobs) are infrastructure every module may use, and are not listed. The read itself goes
 * through the imported drizzle table, not the table's name in SQL text (checkTypedReads), so the
 * type check finds every reader of a renamed column too.
 */

export const READS_LINE = "- **Reads other modules' tables**:";

/** A production file of a module: its module, its path (for messages) and its text. */
export interface SourceFile {
  module: string;
  path: string;
  text: string;
  /** Named imports of drizzle tables, resolved to the module whose tables file they come from. */
  tableImports?: { module: string; names: string[]; file: string }[];
}

export interface Ownership {
  /** table name → owning module */
  owner: Map<string, string>;
  /** `<module>/<tables file>` → export name → table name */
  exports: Map<string, Map<string, string>>;
}

// `pgTable('name', …)`, or a factory of tables in the same file called with the name (`label('product_tags')`).
const TABLE = /export const (\w+)\s*=\s*(?:pgTable\(\s*'([a-z0-9_]+)'|[a-z]\w*\(\s*'([a-z0-9_]+)'\s*\);)/g;
const SQL_NAME = /\b(?:from|join|into|update)\s+([a-z_][a-z0-9_]*)\b/gi;

/** The tables declared in one tables file: export name → table name. */
export function declaredTables(text: string): Map<string, string> {
  return new Map([...text.matchAll(TABLE)].map((m) => [m[1], m[2] ?? m[3]]));
}

/** Comments removed (line and block), strings and templates kept: SQL lives in those. */
export function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

const isForeign = (file: SourceFile, owner: string | undefined): owner is string =>
  !!owner && owner !== file.module && owner !== 'platform';

/**
 * The other modules' tables one file names in SQL text (and the module owning each): reads the
 * type check cannot see, since a renamed column there only fails when the statement runs.
 */
export function rawForeignTables(file: SourceFile, own: Ownership): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of withoutComments(file.text).matchAll(SQL_NAME)) {
    const table = m[1].toLowerCase();
    const owner = own.owner.get(table);
    if (isForeign(file, owner)) found.set(table, owner);
  }
  return found;
}

/** The other modules' tables one file reads (and the module owning each). */
export function foreignTables(file: SourceFile, own: Ownership): Map<string, string> {
  const found = rawForeignTables(file, own);
  const note = (table: string) => {
    const owner = own.owner.get(table);
    if (isForeign(file, owner)) found.set(table, owner);
  };
  for (const imp of file.tableImports ?? []) {
    const tables = own.exports.get(imp.file);
    for (const name of imp.names) {
      const table = tables?.get(name);
      if (table) note(table);
    }
  }
  return found;
}

/** The tables a README lists on its reads line (empty for `none`); undefined when it has no such line. */
export function listedReads(readme: string): Set<string> | undefined {
  const start = readme.indexOf(READS_LINE);
  if (start < 0) return undefined;
  const rest = readme.slice(start + READS_LINE.length);
  // The entry runs to the next bullet, heading or blank line.
  const end = rest.search(/\n\s*(?:- \*\*|#|\n)/);
  const entry = end < 0 ? rest : rest.slice(0, end);
  return new Set([...entry.matchAll(/`([a-z0-9_]+)`/g)].map((m) => m[1]));
}

export interface Violation {
  module: string;
  message: string;
}

/**
 * Every foreign table a module's files read must be on its README's list, and every table on the
 * list must still be read and belong to another module (a stale list misleads as much as a short one).
 */
export function checkBoundaries(files: SourceFile[], readmes: Map<string, string>, own: Ownership): Violation[] {
  const reads = new Map<string, Map<string, string[]>>();
  for (const file of files) {
    for (const [table] of foreignTables(file, own)) {
      const byTable = reads.get(file.module) ?? new Map<string, string[]>();
      reads.set(file.module, byTable);
      byTable.set(table, [...new Set([...(byTable.get(table) ?? []), file.path])]);
    }
  }
  const violations: Violation[] = [];
  const modules = new Set([...readmes.keys(), ...reads.keys()]);
  for (const module of [...modules].sort()) {
    const readme = readmes.get(module);
    const listed = readme === undefined ? undefined : listedReads(readme);
    const actual = reads.get(module) ?? new Map<string, string[]>();
    if (listed === undefined) {
      violations.push({
        module,
        message: `${module}/README.md has no line "${READS_LINE} …" (list them, or \`none\`)`,
      });
      continue;
    }
    for (const [table, paths] of actual)
      if (!listed.has(table))
        violations.push({
          module,
          message: `${paths.join(', ')} reads \`${table}\` (owned by ${own.owner.get(table)}), not listed in ${module}/README.md`,
        });
    for (const table of listed) {
      const owner = own.owner.get(table);
      if (!owner)
        violations.push({ module, message: `${module}/README.md lists \`${table}\`, which no module declares` });
      else if (owner === module)
        violations.push({ module, message: `${module}/README.md lists \`${table}\`, its own table` });
      else if (!actual.has(table))
        violations.push({ module, message: `${module}/README.md lists \`${table}\`, which none of its files reads` });
    }
  }
  return violations;
}

/**
 * Another module's table is read through its drizzle table (imported from the owner's tables file,
 * interpolated into hand-written SQL or used by the query builder), never by its name in SQL
 * text: then renaming a column in the owner's tables file fails `npm run typecheck` in every
 * reader. `allowed` (path → why) names the files not converted yet; an entry whose file no
 * longer names a foreign table is stale and reported too, so the list only shrinks.
 */
export function checkTypedReads(files: SourceFile[], own: Ownership, allowed: Map<string, string>): Violation[] {
  const violations: Violation[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    const raw = rawForeignTables(file, own);
    if (!raw.size) continue;
    seen.add(file.path);
    if (allowed.has(file.path)) continue;
    const names = [...raw].map(([table, owner]) => `\`${table}\` (${owner})`).join(', ');
    violations.push({
      module: file.module,
      message: `${file.path} names ${names} in SQL text: read them through the owner's drizzle tables (typed-sql.ts tableAs/from)`,
    });
  }
  for (const path of allowed.keys())
    if (!seen.has(path))
      violations.push({
        module: path.split('/')[1] ?? path,
        message: `${path} is allowed to name other modules' tables in SQL but names none: take it off the list`,
      });
  return violations;
}

// ---- reading the tree ----

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

const isTablesFile = (path: string) => /(^|[-/])tables\.ts$/.test(path.split(sep).join('/'));
const isProduction = (path: string) => path.endsWith('.ts') && !/\.(test|testing)\.ts$/.test(path);

/** The module a path under `src/` belongs to: `platform`, or the folder under `modules/`. */
function moduleOf(src: string, path: string): string | undefined {
  const parts = relative(src, path).split(sep);
  if (parts[0] === 'platform') return 'platform';
  return parts[0] === 'modules' && parts.length > 2 ? parts[1] : undefined;
}

export function readOwnership(src: string): Ownership {
  const own: Ownership = { owner: new Map(), exports: new Map() };
  for (const path of walk(src).filter(isTablesFile)) {
    const module = moduleOf(src, path);
    if (!module) continue;
    const tables = declaredTables(readFileSync(path, 'utf8'));
    own.exports.set(relative(src, path), tables);
    for (const table of tables.values()) own.owner.set(table, module);
  }
  return own;
}

const IMPORT = /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g;

export function readSources(src: string): { files: SourceFile[]; readmes: Map<string, string> } {
  const modules = join(src, 'modules');
  const files: SourceFile[] = [];
  for (const path of walk(modules).filter(isProduction)) {
    const module = moduleOf(src, path)!;
    const text = readFileSync(path, 'utf8');
    const tableImports = [...text.matchAll(IMPORT)].flatMap((m) => {
      if (!m[2].startsWith('.')) return [];
      const target = resolve(dirname(path), m[2]);
      const owner = moduleOf(src, target);
      if (!owner || owner === module || !isTablesFile(target)) return [];
      const names = m[1]
        .split(',')
        .map((n) =>
          n
            .replace(/^\s*type\s+/, '')
            .split(/\s+as\s+/)[0]
            .trim(),
        )
        .filter(Boolean);
      return [{ module: owner, names, file: relative(src, target) }];
    });
    files.push({ module, path: relative(src, path), text, tableImports });
  }
  const readmes = new Map(
    readdirSync(modules).flatMap((m) => {
      try {
        return [[m, readFileSync(join(modules, m, 'README.md'), 'utf8')] as const];
      } catch {
        return [];
      }
    }),
  );
  return { files, readmes };
}
