import { createHash } from 'node:crypto';

/**
 * The Merkle tree of RFC 9162 §2.1 (the same as RFC 6962): pure functions over leaf hashes, used
 * by the marketplace (roots and proofs), the shop (verification) and the audit CLI alike.
 * Hashes are 32-byte Buffers; a tree of n leaves is the list of its n leaf hashes.
 */

const sha256 = (...parts: Buffer[]): Buffer => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};
const LEAF = Buffer.from([0x00]);
const NODE = Buffer.from([0x01]);

/** SHA-256(0x00 || leaf). */
export function leafHash(leaf: Buffer): Buffer {
  return sha256(LEAF, leaf);
}

/** SHA-256(0x01 || left || right). */
export function nodeHash(left: Buffer, right: Buffer): Buffer {
  return sha256(NODE, left, right);
}

/** The largest power of two strictly below n (n ≥ 2): where the RFC splits a tree. */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH(D[n]): the root of the tree over these leaf hashes; the empty tree's is SHA-256(""). */
export function rootHash(leaves: readonly Buffer[]): Buffer {
  if (leaves.length === 0) return sha256();
  // Bottom-up, level by level: the RFC's recursion gives the same tree (a left-complete one).
  let level = leaves.slice();
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i + 1 < level.length; i += 2) next.push(nodeHash(level[i], level[i + 1]));
    if (level.length % 2 === 1) next.push(level[level.length - 1]);
    level = next;
  }
  return level[0];
}

/** PATH(m, D[n]) of RFC 9162 §2.1.3.1: the audit path of leaf m in the tree of these leaves. */
export function inclusionProof(index: number, leaves: readonly Buffer[]): Buffer[] {
  if (!Number.isInteger(index) || index < 0 || index >= leaves.length)
    throw new RangeError(`leaf ${index} is not in a tree of ${leaves.length}`);
  const path = (m: number, d: readonly Buffer[]): Buffer[] => {
    if (d.length === 1) return [];
    const k = split(d.length);
    return m < k
      ? [...path(m, d.slice(0, k)), rootHash(d.slice(k))]
      : [...path(m - k, d.slice(k)), rootHash(d.slice(0, k))];
  };
  return path(index, leaves);
}

/** PROOF(m, D[n]) of RFC 9162 §2.1.4.1: that the first m leaves are a prefix of these. */
export function consistencyProof(first: number, leaves: readonly Buffer[]): Buffer[] {
  if (!Number.isInteger(first) || first < 0 || first > leaves.length)
    throw new RangeError(`tree size ${first} is not within a tree of ${leaves.length}`);
  if (first === 0 || first === leaves.length) return [];
  const sub = (m: number, d: readonly Buffer[], whole: boolean): Buffer[] => {
    if (m === d.length) return whole ? [] : [rootHash(d)];
    const k = split(d.length);
    return m <= k
      ? [...sub(m, d.slice(0, k), whole), rootHash(d.slice(k))]
      : [...sub(m - k, d.slice(k), false), rootHash(d.slice(0, k))];
  };
  return sub(first, leaves, true);
}

/** RFC 9162 §2.1.3.2: does this audit path lead from the leaf hash at `index` to `root`? */
export function verifyInclusion(
  index: number,
  treeSize: number,
  leaf: Buffer,
  path: readonly Buffer[],
  root: Buffer,
): boolean {
  if (!Number.isInteger(index) || !Number.isInteger(treeSize) || index < 0 || index >= treeSize) return false;
  let fn = index;
  let sn = treeSize - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && r.equals(root);
}

/** RFC 9162 §2.1.4.2: does this proof show the tree of `first` leaves is a prefix of the tree of `second`? */
export function verifyConsistency(
  first: number,
  second: number,
  firstRoot: Buffer,
  secondRoot: Buffer,
  proof: readonly Buffer[],
): boolean {
  if (!Number.isInteger(first) || !Number.isInteger(second) || first < 0 || first > second) return false;
  if (first === second) return proof.length === 0 && firstRoot.equals(secondRoot);
  // From the empty tree every tree follows; the RFC leaves it out, we accept it with no proof.
  if (first === 0) return proof.length === 0;
  if (proof.length === 0) return false;
  const c = (first & (first - 1)) === 0 ? [firstRoot, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = c[0];
  let sr = c[0];
  for (const node of c.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(node, fr);
      sr = nodeHash(node, sr);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      sr = nodeHash(sr, node);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && fr.equals(firstRoot) && sr.equals(secondRoot);
}
