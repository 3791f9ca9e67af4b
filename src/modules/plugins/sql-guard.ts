/**
 * Plugin SQL runs as the plugin's role inside a transaction the host opened with `set local
 * role`. The connection itself is the shop's (on PGlite, and usually on PostgreSQL, a superuser),
 * so SQL that changes identity back (`reset role`, `set role`, `set session authorization`,
 * `set_config('role', …)`), ends the host's transaction (after which `local` settings are gone),
 * or builds SQL at run time that could do either (plpgsql `execute`, `query_to_xml`, `ts_stat`)
 * would step out of the role. The host refuses such text before sending it. This is a deny-list
 * over the whole text, string literals and function bodies included, so it errs on refusing.
 */

const DENIED: { pattern: RegExp; why: string }[] = [
  { pattern: /\b(set|reset)\s+("?role"?|session\b|local\s+"?role"?|all\b)/i, why: 'changes the role' },
  { pattern: /\breset\b/i, why: 'resets settings (the role among them)' },
  { pattern: /\bsession_authorization\b|\bsession\s+authorization\b/i, why: 'changes the session user' },
  { pattern: /\bset_config\b/i, why: 'set_config can change the role' },
  { pattern: /\bexecute\b/i, why: 'dynamic SQL (execute) is not allowed' },
  { pattern: /\b(query|cursor)_to_xml(schema|_and_xmlschema)?\b|\bts_stat\b|\bts_rewrite\b/i, why: 'runs SQL text' },
  { pattern: /\b(dblink|lo_import|lo_export|pg_read_file|pg_read_binary_file|copy)\b/i, why: 'reaches outside' },
  {
    pattern: /\b(create|alter|drop)\s+(role|user|group|extension|event\s+trigger)\b/i,
    why: 'is not a plugin’s to run',
  },
  { pattern: /\bgrant\b|\brevoke\b/i, why: 'grants are the host’s' },
];

/** Top-level transaction control (outside literals and function bodies): commit, rollback, end, abort. */
const TX_CONTROL = /^\s*(commit|rollback(?!\s+to\b)|end|abort|prepare\s+transaction|start\s+transaction|begin)\b/i;

/** The text with string literals, quoted identifiers, dollar-quoted bodies and comments blanked. */
function topLevel(text: string): string {
  return text
    .replace(/\$([A-Za-z_][A-Za-z0-9_]*)?\$[\s\S]*?\$\1\$/g, ' ')
    .replace(/'(?:[^']|'')*'/g, ' ')
    .replace(/"(?:[^"]|"")*"/g, ' ')
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ');
}

export class PluginSqlRefused extends Error {
  readonly status = 403;
  readonly code = 'plugin_sql_refused';
}

/** Throws PluginSqlRefused when plugin SQL could leave the plugin's role or the host's transaction. */
export function assertPluginSql(text: string): void {
  if (typeof text !== 'string') throw new PluginSqlRefused('Plugin SQL must be a string');
  for (const { pattern, why } of DENIED) {
    const m = pattern.exec(text);
    if (m) throw new PluginSqlRefused(`Plugin SQL refused: "${m[0].trim()}" ${why}`);
  }
  for (const statement of topLevel(text).split(';')) {
    const m = TX_CONTROL.exec(statement);
    if (m) throw new PluginSqlRefused(`Plugin SQL refused: "${m[1]}" would end the host's transaction`);
  }
}
