import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  consistencyProof,
  inclusionProof,
  leafHash,
  nodeHash,
  rootHash,
  verifyConsistency,
  verifyInclusion,
} from './merkle.ts';

// The Certificate Transparency reference tree (RFC 6962 §2.1, same hashing as RFC 9162): its
// eight leaf inputs, their roots for 1..8 leaves and a few audit/consistency paths, as published
// with google/certificate-transparency's merkle_tree tests.
const INPUTS = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'];
const ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
const AUDIT: { leaf: number; size: number; path: string[] }[] = [
  { leaf: 0, size: 1, path: [] },
  {
    leaf: 0,
    size: 8,
    path: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    leaf: 5,
    size: 8,
    path: [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  { leaf: 2, size: 3, path: ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125'] },
  {
    leaf: 1,
    size: 5,
    path: [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
];
const CONSISTENCY: { first: number; second: number; proof: string[] }[] = [
  { first: 1, second: 1, proof: [] },
  {
    first: 1,
    second: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    first: 6,
    second: 8,
    proof: [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  {
    first: 2,
    second: 5,
    proof: [
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
];

const hex = (b: Buffer) => b.toString('hex');
const unhex = (s: string) => Buffer.from(s, 'hex');
const leaves = INPUTS.map((i) => leafHash(unhex(i)));
const EMPTY = createHash('sha256').digest();

/** The RFC's recursive definition, written separately from merkle.ts (which folds bottom-up). */
function naiveRoot(d: Buffer[]): Buffer {
  if (d.length === 0) return EMPTY;
  if (d.length === 1) return d[0];
  let k = 1;
  while (k << 1 < d.length) k <<= 1;
  return nodeHash(naiveRoot(d.slice(0, k)), naiveRoot(d.slice(k)));
}

/** n synthetic leaves: hashes of "leaf-<i>". */
const synthetic = (n: number) => Array.from({ length: n }, (_, i) => leafHash(Buffer.from(`leaf-${i}`)));

describe('Merkle tree (RFC 9162 §2.1)', () => {
  it('hashes leaves and nodes with their domain prefixes', () => {
    expect(hex(leafHash(Buffer.from('abc')))).toBe(
      hex(
        createHash('sha256')
          .update(Buffer.from([0, 0x61, 0x62, 0x63]))
          .digest(),
      ),
    );
    expect(hex(nodeHash(unhex('aa'), unhex('bb')))).toBe(hex(createHash('sha256').update(unhex('01aabb')).digest()));
    expect(hex(leaves[0])).toBe(ROOTS[0]);
  });

  it('gives the reference roots for 0 to 8 leaves', () => {
    expect(hex(rootHash([]))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    for (let n = 1; n <= 8; n++) expect(hex(rootHash(leaves.slice(0, n))), `root of ${n}`).toBe(ROOTS[n - 1]);
  });

  it('agrees with the recursive definition for every size up to 40', () => {
    for (let n = 0; n <= 40; n++) expect(hex(rootHash(synthetic(n)))).toBe(hex(naiveRoot(synthetic(n))));
  });

  it('produces and verifies the reference audit paths', () => {
    for (const v of AUDIT) {
      const d = leaves.slice(0, v.size);
      expect(inclusionProof(v.leaf, d).map(hex), `path ${v.leaf}/${v.size}`).toEqual(v.path);
      expect(verifyInclusion(v.leaf, v.size, leaves[v.leaf], v.path.map(unhex), rootHash(d))).toBe(true);
    }
  });

  it('produces and verifies the reference consistency proofs', () => {
    for (const v of CONSISTENCY) {
      const proof = consistencyProof(v.first, leaves.slice(0, v.second));
      expect(proof.map(hex), `proof ${v.first}→${v.second}`).toEqual(v.proof);
      const r1 = rootHash(leaves.slice(0, v.first));
      const r2 = rootHash(leaves.slice(0, v.second));
      expect(verifyConsistency(v.first, v.second, r1, r2, v.proof.map(unhex))).toBe(true);
    }
  });

  it('every leaf of every tree up to 33 proves its inclusion; wrong index, size, leaf, root or path do not', () => {
    for (let n = 1; n <= 33; n++) {
      const d = synthetic(n);
      const root = rootHash(d);
      for (let m = 0; m < n; m++) {
        const path = inclusionProof(m, d);
        expect(verifyInclusion(m, n, d[m], path, root), `${m}/${n}`).toBe(true);
        if (n > 1) expect(verifyInclusion((m + 1) % n, n, d[m], path, root)).toBe(false);
        expect(verifyInclusion(m, n * 2, d[m], path, root)).toBe(false);
        if (n > 1) expect(verifyInclusion(m, Math.floor(n / 2), d[m], path, root)).toBe(false);
        expect(verifyInclusion(m, n, leafHash(Buffer.from('other')), path, root)).toBe(false);
        expect(verifyInclusion(m, n, d[m], path, EMPTY)).toBe(false);
        expect(verifyInclusion(m, n, d[m], [...path, EMPTY], root)).toBe(false);
        for (let j = 0; j < path.length; j++) {
          const wrong = path.slice();
          wrong[j] = EMPTY;
          expect(verifyInclusion(m, n, d[m], wrong, root)).toBe(false);
        }
        if (path.length) expect(verifyInclusion(m, n, d[m], path.slice(0, -1), root)).toBe(false);
      }
    }
  });

  it('every pair of sizes up to 33 is consistent; a rewritten prefix, a wrong size or a damaged proof is not', () => {
    for (let n = 1; n <= 33; n++) {
      const d = synthetic(n);
      const r2 = rootHash(d);
      for (let m = 1; m <= n; m++) {
        const r1 = rootHash(d.slice(0, m));
        const proof = consistencyProof(m, d);
        expect(verifyConsistency(m, n, r1, r2, proof), `${m}→${n}`).toBe(true);
        if (m === n) continue;
        // History rewritten: the same sizes over a tree whose first leaf differs.
        const forked = [leafHash(Buffer.from('forged')), ...d.slice(1)];
        expect(verifyConsistency(m, n, r1, rootHash(forked), consistencyProof(m, forked))).toBe(false);
        expect(verifyConsistency(m, n, rootHash(forked.slice(0, m)), r2, proof)).toBe(false);
        for (const size of [m - 1, m + 1, m ^ 2])
          expect(verifyConsistency(size, n, r1, r2, proof), `size ${size}→${n}`).toBe(false);
        expect(verifyConsistency(m, n * 2, r1, r2, proof)).toBe(false);
        expect(verifyConsistency(m, Math.floor(n / 2), r1, r2, proof)).toBe(false);
        expect(verifyConsistency(m, n, r2, r1, proof)).toBe(false);
        expect(verifyConsistency(m, n, r1, r2, [])).toBe(false);
        for (let j = 0; j < proof.length; j++) {
          const wrong = proof.slice();
          wrong[j] = EMPTY;
          expect(verifyConsistency(m, n, r1, r2, wrong)).toBe(false);
        }
        expect(verifyConsistency(m, n, r1, r2, [...proof, proof.at(-1)!])).toBe(false);
      }
    }
  });

  it('refuses impossible sizes', () => {
    expect(() => inclusionProof(3, synthetic(3))).toThrow(RangeError);
    expect(() => consistencyProof(4, synthetic(3))).toThrow(RangeError);
    expect(verifyInclusion(0, 0, EMPTY, [], EMPTY)).toBe(false);
    expect(verifyConsistency(3, 2, EMPTY, EMPTY, [])).toBe(false);
    expect(verifyConsistency(0, 5, EMPTY, rootHash(synthetic(5)), [])).toBe(true);
  });
});
