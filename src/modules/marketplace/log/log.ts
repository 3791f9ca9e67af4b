import type { Ctx, TxCtx } from '../../../platform/context.ts';
import { errors } from '../../../platform/http/errors.ts';
import { entryLeafHash, type LogEntry, type TreeHead, treeHeadText } from '../../../transparency-log/format.ts';
import { consistencyProof, inclusionProof, rootHash } from '../../../transparency-log/merkle.ts';
import { ensureSigningKey, signText } from '../keys/signing-keys.ts';
import * as q from './queries.ts';

/**
 * The transparency log (RFC 9162's Merkle tree): every approved artifact is appended once, at
 * approval, in the approving transaction. Tree heads are signed on request with the active key;
 * a head names its size, its root and the time of its newest entry, so the same size always
 * signs the same text. Roots and proofs are computed from the leaf hashes (fine for a catalog's
 * thousands of versions; a log of millions would keep interior nodes).
 */

export function entryJson(row: q.LogEntryRow): LogEntry {
  return {
    leaf_index: row.leaf_index,
    marketplace_id: row.marketplace_id,
    version: row.version,
    sha256: row.sha256,
    key_id: row.key_id,
    logged_at: row.logged_at.toISOString(),
  };
}

/** Called by the catalog when a version becomes approved (publish of a trusted upload, or the operator's approval). */
export async function appendApproved(
  tctx: TxCtx,
  marketplaceId: string,
  version: { id: string; version: string; sha256: string; key_id: string },
): Promise<LogEntry> {
  const row = await q.appendLogEntry(tctx.tx, {
    version_id: version.id,
    marketplace_id: marketplaceId,
    version: version.version,
    sha256: version.sha256,
    key_id: version.key_id,
    logged_at: tctx.clock.now(),
  });
  return entryJson(row);
}

async function leavesUpTo(ctx: Ctx, size: number) {
  const rows = await q.listLogEntries(ctx.db, 0, size);
  return { rows, hashes: rows.map((r) => entryLeafHash(entryJson(r))) };
}

/** A size asked for: the current one when absent; beyond it is a 400. */
async function sizeOrCurrent(ctx: Ctx, size: number | undefined): Promise<number> {
  const current = await q.logSize(ctx.db);
  if (size === undefined) return current;
  if (size > current) throw errors.invalid('marketplace_log_tree_size_invalid', { current, size });
  return size;
}

/** The signed tree head of the log at `size` (now, when absent). */
export async function signedTreeHead(ctx: Ctx, encryptionKey: string, size?: number): Promise<TreeHead> {
  const treeSize = await sizeOrCurrent(ctx, size);
  const { rows, hashes } = await leavesUpTo(ctx, treeSize);
  const body = {
    tree_size: treeSize,
    timestamp: rows.at(-1)?.logged_at.toISOString() ?? new Date(0).toISOString(),
    root_hash: rootHash(hashes).toString('hex'),
  };
  const key = await ensureSigningKey(ctx, encryptionKey);
  return { ...body, key_id: key.keyId, signature: signText(key, treeHeadText(body)) };
}

export interface ProofQuery {
  marketplace_id?: string;
  version?: string;
  sha256?: string;
  leaf_index?: number;
  tree_size?: number;
}

/** The entry (by index, or by marketplace id + version [+ sha256]) and its audit path in the tree of `tree_size`. */
export async function inclusion(ctx: Ctx, query: ProofQuery) {
  const treeSize = await sizeOrCurrent(ctx, query.tree_size);
  let entry: q.LogEntryRow | undefined;
  if (query.leaf_index !== undefined) {
    [entry] = await q.listLogEntries(ctx.db, query.leaf_index, query.leaf_index + 1);
  } else if (query.marketplace_id && query.version) {
    entry = await q.findLogEntry(ctx.db, query.marketplace_id, query.version, query.sha256);
  } else {
    throw errors.invalid('marketplace_log_proof_query');
  }
  if (!entry) throw errors.notFound('marketplace_log_entry_not_found');
  if (entry.leaf_index >= treeSize)
    throw errors.invalid('marketplace_log_entry_outside_tree', {
      leaf_index: entry.leaf_index,
      tree_size: treeSize,
    });
  const { hashes } = await leavesUpTo(ctx, treeSize);
  return {
    leaf_index: entry.leaf_index,
    tree_size: treeSize,
    entry: entryJson(entry),
    audit_path: inclusionProof(entry.leaf_index, hashes).map((h) => h.toString('hex')),
  };
}

/** The consistency proof from the tree of `first` entries to the tree of `second`. */
export async function consistency(ctx: Ctx, first: number, second: number) {
  if (first > second) throw errors.invalid('marketplace_log_range_first');
  const size = await sizeOrCurrent(ctx, second);
  const { hashes } = await leavesUpTo(ctx, size);
  return { first, second, proof: consistencyProof(first, hashes).map((h) => h.toString('hex')) };
}

export const MAX_ENTRIES_PAGE = 1000;

/** Entries [start, end) for monitors replaying the log, at most MAX_ENTRIES_PAGE a call. */
export async function entries(ctx: Ctx, start: number, end: number | undefined) {
  const stop = Math.min(end ?? start + MAX_ENTRIES_PAGE, start + MAX_ENTRIES_PAGE);
  if (stop < start) throw errors.invalid('marketplace_log_range_end');
  return { entries: (await q.listLogEntries(ctx.db, start, stop)).map(entryJson) };
}
