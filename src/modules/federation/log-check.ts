import type { Ctx } from '../../platform/context.ts';
import type { Config } from '../../platform/config.ts';
import {
  entryLeafHash,
  isLogEntry,
  isTreeHead,
  proofNodes,
  type TreeHead,
  treeHeadSigned,
} from '../../transparency-log/format.ts';
import { verifyConsistency, verifyInclusion } from '../../transparency-log/merkle.ts';
import { marketplaceClient, MarketplaceError, type MarketplaceClient } from './client.ts';
import * as lq from './log-queries.ts';
import { findRevocationList } from './queries.ts';
import { noteRefusal } from './refusal-note.ts';
import { trustedMarketplaceKeys, VerificationError } from './signature.ts';

/**
 * The shop's side of the marketplace's transparency log. Before installing an artifact it checks
 * that the artifact (its own sha256 of the bytes it received) is in the log under a signed tree
 * head it trusts; it keeps the largest head it has verified and accepts a new one only with a
 * consistency proof from it. A log that forked (another root for a size seen) or was rewritten
 * (an entry dropped or changed) fails that proof: refused, noted and notified.
 */

/** A log check failed: the artifact is not installed; the message lands in the plugin's `error`. */
export class LogRefused extends VerificationError {}

export interface LoggedArtifact {
  marketplaceId: string;
  version: string;
  /** What the shop computed over the bytes it received. */
  sha256: string;
  keyId: string;
}

async function assertSigned(ctx: Ctx, client: MarketplaceClient, head: TreeHead): Promise<void> {
  const trusted = await trustedMarketplaceKeys(ctx, client);
  const revoked = (await findRevocationList(ctx.db, client.url))?.revoked_keys ?? [];
  const keys = Object.fromEntries(Object.entries(trusted).filter(([id]) => !revoked.includes(id)));
  if (!treeHeadSigned(head, keys))
    throw new LogRefused(`the log's tree head of size ${head.tree_size} is not signed by a key this shop trusts`);
}

async function fetchConsistency(client: MarketplaceClient, first: number, second: number): Promise<Buffer[]> {
  const body = await client.getJson<{ proof?: unknown }>('/store/marketplace/log/consistency', {
    first: String(first),
    second: String(second),
  });
  const proof = proofNodes(body.proof);
  if (!proof) throw new LogRefused(`the consistency proof from ${first} to ${second} is malformed`);
  return proof;
}

/**
 * Accepts a signed head if it agrees with the largest one kept: same size, same root; larger, a
 * consistency proof from the kept one (then it is kept instead); smaller, a proof that it is a
 * prefix of the kept one. The first head a shop sees is trusted on first use.
 */
export async function acceptTreeHead(ctx: Ctx, client: MarketplaceClient, head: TreeHead): Promise<void> {
  await assertSigned(ctx, client, head);
  const kept = await lq.findLogHead(ctx.db, client.url);
  const now = ctx.clock.now();
  if (!kept) return lq.saveLogHead(ctx.db, client.url, head, now);
  const keptRoot = Buffer.from(kept.root_hash, 'hex');
  const root = Buffer.from(head.root_hash, 'hex');
  if (head.tree_size === kept.tree_size) {
    if (!root.equals(keptRoot))
      throw new LogRefused(
        `the log forked: size ${head.tree_size} now has root ${head.root_hash}, this shop verified ${kept.root_hash}`,
      );
    return lq.touchLogHead(ctx.db, client.url, now);
  }
  const [small, large] = head.tree_size > kept.tree_size ? [kept, head] : [head, kept];
  const proof = await fetchConsistency(client, small.tree_size, large.tree_size);
  const ok = verifyConsistency(
    small.tree_size,
    large.tree_size,
    Buffer.from(small.root_hash, 'hex'),
    Buffer.from(large.root_hash, 'hex'),
    proof,
  );
  if (!ok)
    throw new LogRefused(
      `the log is not consistent with the tree head of size ${kept.tree_size} this shop verified: its history was rewritten`,
    );
  if (head.tree_size > kept.tree_size) await lq.saveLogHead(ctx.db, client.url, head, now);
  else await lq.touchLogHead(ctx.db, client.url, now);
}

/** Notes a refusal: on the kept head, in the log, and as a notification (once a day per marketplace). */
export function noteLogRefusal(ctx: Ctx, url: string, reason: string): Promise<void> {
  return noteRefusal(ctx, url, reason, {
    type: 'marketplace.log_refused',
    title: 'Marketplace transparency log refused',
    logLine: 'marketplace transparency log refused',
    message: `The transparency log of ${url} was refused: ${reason}. Nothing more is installed from it until its log checks out again.`,
    save: (tx, now) => lq.saveLogRefusal(tx, url, reason, now),
  });
}

function checkInclusion(a: LoggedArtifact, raw: unknown): { leafIndex: number; head: TreeHead } {
  const log = raw as Record<string, unknown> | null;
  if (!log) throw new LogRefused(`${a.marketplaceId}@${a.version} is not in the marketplace's transparency log`);
  const path = proofNodes(log.audit_path);
  if (!isTreeHead(log.sth) || !isLogEntry(log.entry) || !path || log.tree_size !== log.sth.tree_size)
    throw new LogRefused(`the transparency log proof for ${a.marketplaceId}@${a.version} is malformed`);
  const { entry, sth } = log;
  if (
    entry.marketplace_id !== a.marketplaceId ||
    entry.version !== a.version ||
    entry.sha256 !== a.sha256 ||
    entry.key_id !== a.keyId
  )
    throw new LogRefused(
      `the transparency log entry names ${entry.marketplace_id}@${entry.version} (sha256 ${entry.sha256}), not the ${a.sha256} this shop received`,
    );
  if (!verifyInclusion(entry.leaf_index, sth.tree_size, entryLeafHash(entry), path, Buffer.from(sth.root_hash, 'hex')))
    throw new LogRefused(
      `${a.marketplaceId}@${a.version} (sha256 ${a.sha256}) is not in the log under its tree head of size ${sth.tree_size}`,
    );
  return { leafIndex: entry.leaf_index, head: sth };
}

/**
 * The install-time check (plugins/sources.ts, after the signature): the descriptor's inclusion
 * proof for exactly these bytes, under a signed head consistent with what this shop saw before.
 * Whatever the verdict, the artifact is recorded for `emporium marketplace audit`.
 */
export async function verifyLogged(ctx: Ctx, client: MarketplaceClient, a: LoggedArtifact, raw: unknown) {
  const record = (leafIndex: number | null, treeSize: number | null, refused: string | null) =>
    lq.recordServedArtifact(ctx.db, {
      marketplace_url: client.url,
      marketplace_id: a.marketplaceId,
      version: a.version,
      sha256: a.sha256,
      leaf_index: leafIndex,
      tree_size: treeSize,
      refused_reason: refused,
      received_at: ctx.clock.now(),
    });
  try {
    const { leafIndex, head } = checkInclusion(a, raw);
    await acceptTreeHead(ctx, client, head);
    await record(leafIndex, head.tree_size, null);
  } catch (err) {
    if (!(err instanceof LogRefused)) throw err;
    await record(null, null, err.message);
    await noteLogRefusal(ctx, client.url, err.message);
    throw err;
  }
}

export type LogPollResult =
  | { status: 'not_federated' | 'unreachable' }
  | { status: 'refused'; reason: string }
  | { status: 'accepted'; tree_size: number };

/** One poll of the signed tree head (with the revocation list): a fork or rewrite is refused and reported. */
export async function pollLogHead(ctx: Ctx, config: Config): Promise<LogPollResult> {
  const client = marketplaceClient(config.federation);
  if (!client) return { status: 'not_federated' };
  try {
    const head = await client.getJson<unknown>('/store/marketplace/log/sth');
    if (!isTreeHead(head)) throw new LogRefused('the signed tree head is malformed');
    await acceptTreeHead(ctx, client, head);
    return { status: 'accepted', tree_size: head.tree_size };
  } catch (err) {
    if (err instanceof MarketplaceError) return { status: 'unreachable' };
    if (!(err instanceof LogRefused)) throw err;
    await noteLogRefusal(ctx, client.url, err.message);
    return { status: 'refused', reason: err.message };
  }
}
