/**
 * Plugin SQL runs as the plugin's role inside a transaction the host opened with `set local
 * role`. The connection itself is the shop's (on PGlite, and usually on PostgreSQL, a superuser),
 * and whatever a statement leaves on the connection outlives the plugin's transaction. So the
 * host refuses, before sending it, SQL that could:
 * - change identity back (`set role`, `reset role`, `set session authorization`, `set_config`,
 *   `pg_settings`, whose update rule calls set_config);
 * - change a setting at all: a plain `set search_path` after the host's `set local` survives the
 *   commit, and the shop names its tables without a schema;
 * - leave objects on the session (temporary tables, which hide the shop's tables of the same
 *   name; prepared statements, cursors, LISTEN, session advisory locks) or touch the shop's
 *   (DEALLOCATE, UNLISTEN, DISCARD, pg_notify on the catalog's channels);
 * - end the host's transaction, or run SQL text built at run time (EXECUTE, query_to_xml…);
 * - reach outside the database (COPY, dblink, server files).
 *
 * The text is parsed by PostgreSQL's own parser (libpg-query: the parser compiled to wasm), so a
 * comment between two keywords, a Unicode-escaped name (`U&"set\005fconfig"`) or a nested comment
 * reads as PostgreSQL reads it. Only statement kinds a plugin's own tables need are allowed; every
 * function call and table name in them is checked, and the bodies of `sql` and `plpgsql`
 * functions and DO blocks are checked the same way, statement by statement.
 * PostgreSQL then enforces the role's grants on what gets through (plugin-role.ts).
 */

type Node = Record<string, unknown>;
type Parser = typeof import('libpg-query');

export class PluginSqlRefused extends Error {
  readonly status = 403;
  readonly code = 'plugin_sql_refused';
}

const refuse = (what: string, why: string): never => {
  throw new PluginSqlRefused(`Plugin SQL refused: "${what.replace(/\s+/g, ' ').trim().slice(0, 60)}" ${why}`);
};

/** Statements a plugin's tables need (each still checked inside). */
const ALLOWED = new Set([
  'SelectStmt',
  'InsertStmt',
  'UpdateStmt',
  'DeleteStmt',
  'MergeStmt',
  'ExplainStmt',
  'VariableShowStmt',
  'CreateStmt',
  'CreateTableAsStmt',
  'AlterTableStmt',
  'DropStmt',
  'TruncateStmt',
  'IndexStmt',
  'CreateSeqStmt',
  'AlterSeqStmt',
  'ViewStmt',
  'RefreshMatViewStmt',
  'RenameStmt',
  'CommentStmt',
  'CreateEnumStmt',
  'AlterEnumStmt',
  'CompositeTypeStmt',
  'CreateDomainStmt',
  'AlterDomainStmt',
  'CreateFunctionStmt',
  'AlterFunctionStmt',
  'CreateTrigStmt',
  'LockStmt',
  'DoStmt',
  'TransactionStmt',
]);

/** Why some statements are refused, for the message; anything else not allowed "is not a plugin's to run". */
const WHY: Record<string, string> = {
  VariableSetStmt: 'changes a setting of the shop’s connection (it outlives the transaction)',
  GrantStmt: 'grants are the host’s',
  GrantRoleStmt: 'grants are the host’s',
  AlterDefaultPrivilegesStmt: 'grants are the host’s',
  CopyStmt: 'reaches outside',
  PrepareStmt: 'leaves a prepared statement on the shop’s connection',
  ExecuteStmt: 'runs a prepared statement',
  DeallocateStmt: 'drops the shop’s prepared statements',
  DiscardStmt: 'resets the shop’s connection',
  ListenStmt: 'listens on the shop’s connection',
  UnlistenStmt: 'stops the shop’s own listeners',
  NotifyStmt: 'notifies the shop’s channels',
  DeclareCursorStmt: 'leaves a cursor on the shop’s connection',
  CallStmt: 'calls a procedure (which may end the transaction)',
};

/** Functions refused wherever they are called (the last part of the name, lower case). */
const DENIED_FUNCTIONS: [RegExp, string][] = [
  [/^set_config$/, 'set_config can change the role'],
  [/^(query|cursor)_to_xml(schema|_and_xmlschema)?$|^ts_(stat|rewrite)$/, 'runs SQL text'],
  [/^dblink|^lo_(import|export)$|^pg_(read_file|read_binary_file|ls_dir|stat_file)$/, 'reaches outside'],
  [/^pg_(try_)?advisory_(lock|unlock)(_shared|_all)?$/, 'takes or drops session locks on the shop’s connection'],
  [/^pg_notify$/, 'notifies the shop’s channels'],
  [/^pg_sleep(_for|_until)?$/, 'holds the shop’s connection'],
  [/^pg_(terminate|cancel)_backend$|^pg_reload_conf$/, 'is not a plugin’s to run'],
];

/** Transaction statements that stay inside the host's transaction. */
const SUBTRANSACTIONS = new Set(['TRANS_STMT_SAVEPOINT', 'TRANS_STMT_RELEASE', 'TRANS_STMT_ROLLBACK_TO']);

// PostgreSQL's RawParseMode for a PL/pgSQL expression: a statement, an expression, or an assignment.
const PARSE_STATEMENT = 0;
const PARSE_EXPRESSION = 2;
const PARSE_ASSIGNMENT = [3, 4, 5];

let parser: Promise<Parser> | undefined;
/** Loaded on first use: a shop whose plugins run no SQL never loads the parser's wasm. */
const loadParser = () =>
  (parser ??= import('libpg-query').then(async (pg) => {
    await pg.loadModule();
    return pg;
  }));

/** Texts already let through (plugins send the same statements again and again). */
const approved = new Set<string>();

/** Throws PluginSqlRefused when plugin SQL could step out of the plugin's role or transaction. */
export async function assertPluginSql(text: string, ownSchema?: string): Promise<void> {
  if (typeof text !== 'string') throw new PluginSqlRefused('Plugin SQL must be a string');
  const key = `${ownSchema ?? ''}\u0000${text}`;
  if (approved.has(key)) return;
  checkStatements({ pg: await loadParser(), own: ownSchema }, text);
  if (approved.size >= 1000) approved.clear();
  approved.add(key);
}

/** What a check needs: the parser, and the plugin's schema (where the objects it creates must go). */
interface Check {
  pg: Parser;
  own?: string;
}

function parsed(text: string, parse: (t: string) => unknown): Node {
  try {
    return parse(text) as Node;
  } catch (err) {
    return refuse(text, `does not parse: ${(err as Error).message}`);
  }
}

/** Every statement of `text` (a migration file, a query, a function body). */
function checkStatements(c: Check, text: string): void {
  const tree = parsed(text, c.pg.parseSync);
  for (const raw of (tree.stmts ?? []) as Node[]) {
    const start = (raw.stmt_location as number | undefined) ?? 0;
    const len = raw.stmt_len as number | undefined;
    const source = text.slice(start, len ? start + len : undefined);
    checkStatement(c, raw.stmt as Node, source);
  }
}

function checkStatement(c: Check, stmt: Node, source: string): void {
  const [kind, body] = Object.entries(stmt)[0] as [string, Node];
  if (!ALLOWED.has(kind)) refuse(source, WHY[kind] ?? 'is not a plugin’s to run');
  if (kind === 'TransactionStmt' && !SUBTRANSACTIONS.has(body.kind as string))
    refuse(source, 'would end the host’s transaction');
  if (kind === 'ExplainStmt') checkStatement(c, body.query as Node, source);
  if (kind === 'CreateTableAsStmt') checkStatement(c, body.query as Node, source);
  if (kind === 'CreateFunctionStmt' || kind === 'AlterFunctionStmt' || kind === 'DoStmt')
    checkRoutine(c, kind, body, source);
  checkCreatedName(c, kind, body, source);
  walk(c, body, source);
}

/** Where each allowed statement that creates a named object names it: a RangeVar or a qualified name. */
const CREATED_NAME: Record<string, (body: Node) => unknown> = {
  CreateStmt: (b) => b.relation,
  CreateTableAsStmt: (b) => (b.into as Node)?.rel,
  ViewStmt: (b) => b.view,
  CreateSeqStmt: (b) => b.sequence,
  CompositeTypeStmt: (b) => b.typevar,
  CreateEnumStmt: (b) => b.typeName,
  CreateDomainStmt: (b) => b.domainname,
  CreateFunctionStmt: (b) => b.funcname,
};

/**
 * An object the plugin creates goes in its own schema. Unqualified, it does (its search_path);
 * qualified with another schema, PostgreSQL refuses it unless the role may create there, which a
 * database made before PostgreSQL 15 grants everyone on `public`: a plugin's `public.lower(varchar)`
 * would then be a better match than pg_catalog's for the shop's own calls (CVE-2018-1058's trap).
 */
function checkCreatedName(c: Check, kind: string, body: Node, source: string): void {
  const name = CREATED_NAME[kind]?.(body);
  if (!c.own || !name) return;
  const schema = Array.isArray(name) ? schemaOf(name) : (name as Node).schemaname;
  if (typeof schema === 'string' && schema !== c.own)
    refuse(source, `creates an object outside the plugin’s schema (in ${schema})`);
}

/** Function calls and table names anywhere in a statement. */
function walk(c: Check, node: unknown, source: string): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(c, item, source);
    return;
  }
  if (!node || typeof node !== 'object') return;
  // A table name (RangeVar) appears unwrapped where a field holds one (`relation`, `into.rel`).
  if (typeof (node as Node).relname === 'string') checkRelation(node as Node, source);
  for (const [key, value] of Object.entries(node as Node)) {
    if (key === 'FuncCall') checkCall(value as Node);
    if (WHY[key]) refuse(source, WHY[key]);
    // An enum's labels are values, not names.
    if (key !== 'vals' && Array.isArray(value)) checkQualifiedName(value, source);
    if (key === 'sql_body') checkBody(c, value, source);
    else walk(c, value, source);
  }
}

/**
 * A qualified name (a type's, a domain's, a function's, a column reference's: a list of String
 * nodes) in the session's temporary schema. The role may create objects there (PUBLIC's TEMP right
 * on the database), they outlive the transaction, and for type names PostgreSQL searches that
 * schema before pg_catalog: `create domain pg_temp.text … check (plugin_fn(value))` would turn the
 * shop's own `::text` into a call of the plugin's function, made as the shop's user.
 */
function checkQualifiedName(items: unknown[], source: string): void {
  if (schemaOf(items)?.toLowerCase().startsWith('pg_temp'))
    refuse(source, 'names the session’s temporary schema (what is made there outlives the transaction)');
}

/** The schema part of a qualified name (a list of String nodes), when it has one. */
function schemaOf(items: unknown[]): string | undefined {
  const first = items.length > 1 ? ((items[0] as Node)?.String as Node | undefined)?.sval : undefined;
  return typeof first === 'string' ? first : undefined;
}

function checkCall(call: Node): void {
  const names = (call.funcname as Node[]).map((n) => (n.String as Node)?.sval as string);
  const name = String(names.at(-1)).toLowerCase();
  for (const [pattern, why] of DENIED_FUNCTIONS) if (pattern.test(name)) refuse(name, why);
}

function checkRelation(rel: Node, source: string): void {
  const schema = String(rel.schemaname ?? '').toLowerCase();
  if (rel.relpersistence === 't' || schema.startsWith('pg_temp'))
    refuse(source, 'creates a temporary table (it outlives the transaction and hides the shop’s tables)');
  // Its update rule calls set_config for the role, with the session user's (the shop's) rights.
  if (rel.relname === 'pg_settings') refuse(source, 'reaches the connection’s settings (pg_settings)');
}

/**
 * A SQL function's standard body: `begin atomic … end` (a list of statement lists, each statement
 * checked like a top-level one) or `return expr` (a ReturnStmt: its expression walked like any).
 */
function checkBody(c: Check, body: unknown, source: string): void {
  const items = ((body as Node)?.List as Node)?.items as Node[] | undefined;
  if (!items) {
    walk(c, body, source);
    return;
  }
  for (const item of items) {
    const list = item.List as Node | undefined;
    if (list) for (const stmt of (list.items ?? []) as Node[]) checkStatement(c, stmt, source);
    else checkStatement(c, item, source);
  }
}

/** A function, a change to one, or a DO block: its options and, by its language, its body. */
function checkRoutine(c: Check, kind: string, body: Node, source: string): void {
  const options = ((kind === 'AlterFunctionStmt' ? body.actions : kind === 'DoStmt' ? body.args : body.options) ??
    []) as Node[];
  let language = kind === 'DoStmt' ? 'plpgsql' : 'sql';
  let code: string[] = [];
  for (const { DefElem: option } of options as { DefElem: Node }[]) {
    const arg = option.arg as Node | undefined;
    if (option.defname === 'set') refuse(source, 'sets a setting when the function runs');
    if (option.defname === 'language') language = String((arg?.String as Node)?.sval).toLowerCase();
    if (option.defname === 'as') {
      const items = ((arg?.List as Node)?.items ?? [arg]) as Node[];
      code = items.map((item) => (item?.String as Node)?.sval as string).filter((s) => typeof s === 'string');
    }
  }
  if (kind === 'AlterFunctionStmt') return;
  if (language === 'sql') for (const text of code) checkStatements(c, text);
  else if (language === 'plpgsql') {
    if (code.length) walkPlpgsql(c, parsed(source, c.pg.parsePlPgSQLSync), source);
  } else refuse(source, `is written in ${language}: plugin functions are sql or plpgsql`);
}

/** Statement kinds of PL/pgSQL refused outright. */
const DENIED_PLPGSQL: Record<string, string> = {
  PLpgSQL_stmt_dynexecute: 'runs dynamic SQL (EXECUTE)',
  PLpgSQL_stmt_dynfors: 'runs dynamic SQL (FOR … IN EXECUTE)',
  PLpgSQL_stmt_commit: 'would end the host’s transaction',
  PLpgSQL_stmt_rollback: 'would end the host’s transaction',
};

/** Every statement and expression of a PL/pgSQL body, checked as SQL. */
function walkPlpgsql(c: Check, node: unknown, source: string): void {
  if (Array.isArray(node)) {
    for (const item of node) walkPlpgsql(c, item, source);
    return;
  }
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node as Node)) {
    if (DENIED_PLPGSQL[key]) refuse(source, DENIED_PLPGSQL[key]);
    if ((key === 'PLpgSQL_stmt_open' || key === 'PLpgSQL_stmt_return_query') && (value as Node).dynquery)
      refuse(source, 'runs dynamic SQL (EXECUTE)');
    if (key === 'PLpgSQL_expr') checkExpression(c, value as Node);
    else walkPlpgsql(c, value, source);
  }
}

function checkExpression(c: Check, expr: Node): void {
  const query = String(expr.query ?? '');
  const mode = Number(expr.parseMode ?? PARSE_STATEMENT);
  if (mode === PARSE_STATEMENT) checkStatements(c, query);
  else if (mode === PARSE_EXPRESSION) checkStatements(c, `select ${query}`);
  else if (PARSE_ASSIGNMENT.includes(mode)) {
    // `target := value` (or `=`): both sides are expressions (a target's subscripts are too).
    const assign = c.pg.scanSync(query).tokens.find((t) => [':=', '='].includes(query.slice(t.start, t.end)));
    if (!assign) refuse(query, 'is an assignment that could not be read');
    else {
      checkStatements(c, `select ${query.slice(0, assign.start)}`);
      checkStatements(c, `select ${query.slice(assign.end)}`);
    }
  }
  // A type name (mode 1) runs nothing.
}
