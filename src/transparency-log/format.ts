import { createPublicKey, verify } from 'node:crypto';
import { leafHash } from './merkle.ts';

/**
 * What the marketplace's transparency log holds and signs, in one place for the three readers: the
 * marketplace (marketplace/log/), the shop (federation/log-check.ts) and the audit CLI.
 */

/** One logged artifact: the leaf is these fields, in this order, after a domain prefix. */
export interface LogEntry {
  leaf_index: number;
  marketplace_id: string;
  version: string;
  /** sha256 (hex) of the package bytes. */
  sha256: string;
  /** The signing key whose signature the artifact carries. */
  key_id: string;
  logged_at: string;
}

/** A signed tree head: the log's size and root, signed with the marketplace's Ed25519 key. */
export interface TreeHead {
  tree_size: number;
  /** ISO time of the newest entry (the epoch for the empty log): the same size always signs the same text. */
  timestamp: string;
  /** hex */
  root_hash: string;
  key_id: string;
  /** base64 Ed25519 over treeHeadText(). */
  signature: string;
}

/** The leaf's bytes: `emporium-log-v1\n` then the JSON of the entry's fields without its index. */
export function leafBytes(e: Omit<LogEntry, 'leaf_index'>): Buffer {
  const { marketplace_id, version, sha256, key_id, logged_at } = e;
  return Buffer.from(
    `emporium-log-v1\n${JSON.stringify({ marketplace_id, version, sha256, key_id, logged_at })}`,
    'utf8',
  );
}

export function entryLeafHash(e: Omit<LogEntry, 'leaf_index'>): Buffer {
  return leafHash(leafBytes(e));
}

/** What a tree head's signature covers; the prefix keeps it from passing for any other signature. */
export function treeHeadText(h: Pick<TreeHead, 'tree_size' | 'timestamp' | 'root_hash'>): string {
  return `emporium-sth-v1\n${h.tree_size}\n${h.timestamp}\n${h.root_hash}`;
}

const HEX32 = /^[0-9a-f]{64}$/;

export function isTreeHead(x: unknown): x is TreeHead {
  const h = x as Record<string, unknown> | null;
  return (
    !!h &&
    Number.isInteger(h.tree_size) &&
    (h.tree_size as number) >= 0 &&
    typeof h.timestamp === 'string' &&
    typeof h.root_hash === 'string' &&
    HEX32.test(h.root_hash) &&
    typeof h.key_id === 'string' &&
    typeof h.signature === 'string'
  );
}

export function isLogEntry(x: unknown): x is LogEntry {
  const e = x as Record<string, unknown> | null;
  return (
    !!e &&
    Number.isInteger(e.leaf_index) &&
    typeof e.marketplace_id === 'string' &&
    typeof e.version === 'string' &&
    typeof e.sha256 === 'string' &&
    typeof e.key_id === 'string' &&
    typeof e.logged_at === 'string'
  );
}

/** Proof nodes as served (hex strings), or null when one is not a 32-byte hex hash. */
export function proofNodes(x: unknown): Buffer[] | null {
  if (!Array.isArray(x) || !x.every((n) => typeof n === 'string' && HEX32.test(n))) return null;
  return x.map((n: string) => Buffer.from(n, 'hex'));
}

/** Ed25519 check of base64 `signature` over the UTF-8 text with a base64 raw public key. */
export function verifyEd25519(publicKey: string, text: string, signature: string): boolean {
  const raw = Buffer.from(publicKey, 'base64');
  const sig = Buffer.from(signature, 'base64');
  if (raw.length !== 32 || sig.length !== 64) return false;
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
  return verify(null, Buffer.from(text, 'utf8'), key, sig);
}

/** Whether the head is signed by one of `keys` (key_id → base64 raw Ed25519 key). */
export function treeHeadSigned(h: TreeHead, keys: Record<string, string>): boolean {
  const publicKey = keys[h.key_id];
  return !!publicKey && verifyEd25519(publicKey, treeHeadText(h), h.signature);
}
