import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  entryLeafHash,
  isLogEntry,
  isTreeHead,
  type LogEntry,
  proofNodes,
  type TreeHead,
  treeHeadSigned,
} from '../transparency-log/format.ts';
import { rootHash, verifyConsistency, verifyInclusion } from '../transparency-log/merkle.ts';
import { UsageError } from './usage-error.ts';

/**
 * `emporium marketplace audit <marketplace url> [--shop <url> --token <admin token>] [--state <file>]`: replays the
 * marketplace's transparency log as an independent monitor would. It fetches every entry, rebuilds
 * the tree, checks the signed tree head of every size, every inclusion proof and the consistency
 * proof from every earlier size to the current one, flags a version logged with two different
 * sha256, and (with --shop) checks the shop's remembered tree head and that every artifact the
 * marketplace served that shop is in the log. With --state it keeps the head it verified in a file
 * and checks, next run, that the log still starts with it (a rewritten history is caught).
 */

export interface AuditOptions {
  marketplace: string;
  shop?: string;
  token?: string;
  /** The head this monitor verified last time (`--state` file): the log must still start with it. */
  known?: { tree_size: number; root_hash: string };
  fetchImpl?: typeof fetch;
}

export interface AuditReport {
  tree_size: number;
  root_hash: string;
  entries: number;
  proofs_checked: number;
  problems: string[];
}

class AuditFailed extends Error {}

async function getJson(fetchImpl: typeof fetch, url: string, headers: Record<string, string> = {}): Promise<unknown> {
  const res = await fetchImpl(url, { headers: { accept: 'application/json', ...headers } });
  const text = await res.text();
  if (!res.ok) throw new AuditFailed(`${url} answered ${res.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

export async function auditMarketplace(opts: AuditOptions): Promise<AuditReport> {
  const f = opts.fetchImpl ?? fetch;
  const base = `${opts.marketplace.replace(/\/+$/, '')}/store/marketplace`;
  const problems: string[] = [];
  let proofs = 0;

  const { keys } = (await getJson(f, `${base}/keys`)) as { keys: { key_id: string; public_key: string }[] };
  const keyMap = Object.fromEntries(keys.map((k) => [k.key_id, k.public_key]));
  const sth = async (size?: number): Promise<TreeHead> => {
    const head = await getJson(f, `${base}/log/sth${size === undefined ? '' : `?tree_size=${size}`}`);
    if (!isTreeHead(head))
      throw new AuditFailed(`the tree head${size === undefined ? '' : ` of size ${size}`} is malformed`);
    if (!treeHeadSigned(head, keyMap)) problems.push(`tree head of size ${head.tree_size}: signature does not verify`);
    return head;
  };

  const head = await sth();
  const n = head.tree_size;
  const entries: LogEntry[] = [];
  while (entries.length < n) {
    const page = (await getJson(f, `${base}/log/entries?start=${entries.length}&end=${n}`)) as { entries: unknown[] };
    if (!page.entries.length) break;
    for (const e of page.entries) {
      if (!isLogEntry(e) || e.leaf_index !== entries.length)
        throw new AuditFailed(`entry ${entries.length} is malformed or out of order`);
      entries.push(e);
    }
  }
  if (entries.length !== n) problems.push(`the tree head says ${n} entries, the log served ${entries.length}`);
  const hashes = entries.map(entryLeafHash);
  const root = rootHash(hashes);
  if (root.toString('hex') !== head.root_hash)
    problems.push(
      `the entries do not hash to the signed root of size ${n}: the log serves other entries than it signed`,
    );

  for (const e of entries) {
    const proof = (await getJson(f, `${base}/log/proof?leaf_index=${e.leaf_index}&tree_size=${n}`)) as {
      audit_path?: unknown;
      entry?: unknown;
    };
    const path = proofNodes(proof.audit_path);
    proofs++;
    if (!path || !verifyInclusion(e.leaf_index, n, hashes[e.leaf_index], path, root))
      problems.push(`entry ${e.leaf_index} (${e.marketplace_id}@${e.version}): inclusion proof does not verify`);
  }

  for (let m = 1; m < n; m++) {
    const old = await sth(m);
    const expected = rootHash(hashes.slice(0, m)).toString('hex');
    if (old.root_hash !== expected)
      problems.push(`tree head of size ${m}: root differs from the log's first ${m} entries`);
    const { proof } = (await getJson(f, `${base}/log/consistency?first=${m}&second=${n}`)) as { proof?: unknown };
    const nodes = proofNodes(proof);
    proofs++;
    if (!nodes || !verifyConsistency(m, n, Buffer.from(old.root_hash, 'hex'), root, nodes))
      problems.push(`consistency proof from size ${m} to ${n} does not verify`);
  }

  const seen = new Map<string, string>();
  for (const e of entries) {
    const key = `${e.marketplace_id}@${e.version}`;
    const sha = seen.get(key);
    if (sha && sha !== e.sha256)
      problems.push(`${key} is logged with two different artifacts (${sha} and ${e.sha256})`);
    seen.set(key, sha ?? e.sha256);
  }

  if (opts.known) {
    const k = opts.known;
    if (k.tree_size > entries.length)
      problems.push(
        `this monitor saw a tree of size ${k.tree_size}; the log now has ${entries.length}: history was dropped`,
      );
    else if (rootHash(hashes.slice(0, k.tree_size)).toString('hex') !== k.root_hash)
      problems.push(
        `the first ${k.tree_size} entries no longer hash to the root this monitor saw: history was rewritten`,
      );
  }

  if (opts.shop) await auditShop(f, opts, entries, hashes, keyMap, problems);
  return { tree_size: n, root_hash: head.root_hash, entries: entries.length, proofs_checked: proofs, problems };
}

/** The shop's view: its kept head must be a prefix of this log, and what it was served must be logged. */
async function auditShop(
  f: typeof fetch,
  opts: AuditOptions,
  entries: LogEntry[],
  hashes: Buffer[],
  keyMap: Record<string, string>,
  problems: string[],
): Promise<void> {
  const state = (await getJson(f, `${opts.shop!.replace(/\/+$/, '')}/admin/marketplace/log`, {
    authorization: `Bearer ${opts.token ?? ''}`,
  })) as {
    tree_head: TreeHead | null;
    served: { marketplace_id: string; version: string; sha256: string; refused_reason: string | null }[];
  };
  const kept = state.tree_head;
  if (kept) {
    if (!treeHeadSigned(kept, keyMap))
      problems.push(`the shop's tree head of size ${kept.tree_size} is not signed by the marketplace`);
    else if (kept.tree_size > entries.length)
      problems.push(
        `the shop verified a tree of size ${kept.tree_size}; the log now has ${entries.length}: history was dropped`,
      );
    else if (rootHash(hashes.slice(0, kept.tree_size)).toString('hex') !== kept.root_hash)
      problems.push(
        `the shop's tree head of size ${kept.tree_size} differs from this log's: the marketplace showed the shop another log`,
      );
  }
  const logged = new Set(entries.map((e) => `${e.marketplace_id}@${e.version}:${e.sha256}`));
  for (const s of state.served) {
    if (!logged.has(`${s.marketplace_id}@${s.version}:${s.sha256}`))
      problems.push(
        `served to the shop but not in the log: ${s.marketplace_id}@${s.version} sha256 ${s.sha256}${s.refused_reason ? ' (the shop refused it)' : ''}`,
      );
  }
}

/** The CLI: prints the report; exit code 1 when anything did not check out. */
export async function marketplaceAudit(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      shop: { type: 'string' },
      token: { type: 'string' },
      state: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  const marketplace = positionals[0] ?? process.env.SERVICE_FEDERATION_URL;
  if (!marketplace || positionals.length > 1) throw new UsageError('marketplace audit takes the marketplace URL');
  if (values.shop && !values.token) throw new UsageError('--shop needs --token (an admin token of that shop)');
  const known = values.state && existsSync(values.state) ? JSON.parse(readFileSync(values.state, 'utf8')) : undefined;
  let report: AuditReport;
  try {
    report = await auditMarketplace({ marketplace, shop: values.shop, token: values.token, known });
  } catch (err) {
    if (err instanceof AuditFailed || err instanceof SyntaxError) {
      console.error(`audit failed: ${err.message}`);
      return 1;
    }
    throw err;
  }
  if (values.json) console.log(JSON.stringify(report, null, 2));
  else {
    console.log(`log of ${marketplace}: ${report.entries} entries, root ${report.root_hash}`);
    console.log(`${report.proofs_checked} proofs checked`);
    for (const p of report.problems) console.log(`PROBLEM: ${p}`);
    console.log(report.problems.length ? `${report.problems.length} problem(s)` : 'ok: the log checks out');
  }
  // Remember the head for the next run only when everything checked out.
  if (values.state && !report.problems.length)
    writeFileSync(values.state, JSON.stringify({ tree_size: report.tree_size, root_hash: report.root_hash }));
  return report.problems.length ? 1 : 0;
}
