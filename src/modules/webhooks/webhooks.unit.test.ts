import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signatureHeader } from './sign.ts';
import { verifySignature } from './verify-signature.ts';

describe('signatureHeader and verifySignature', () => {
  const secret = 'whsec_test';
  const body = '{"id":"order_1","total":1999}';
  const at = new Date('2026-03-01T10:00:00.000Z');
  const t = at.getTime() / 1000;
  const header = signatureHeader(secret, at, body);

  it('signs "<t>.<body>" with HMAC-SHA256, hex', () => {
    const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    expect(header).toBe(`t=${t},v1=${v1}`);
  });

  it('accepts a fresh, correct signature from a string or a Buffer', () => {
    expect(verifySignature(body, header, secret, { now: at })).toBe(true);
    expect(verifySignature(Buffer.from(body), header, secret, { now: new Date(at.getTime() + 299_000) })).toBe(true);
  });

  it('rejects another body, secret or a re-serialized body', () => {
    expect(verifySignature(`${body} `, header, secret, { now: at })).toBe(false);
    expect(verifySignature(body, header, 'whsec_other', { now: at })).toBe(false);
    expect(verifySignature(JSON.stringify(JSON.parse(body), null, 2), header, secret, { now: at })).toBe(false);
  });

  it('rejects a stale or far-future timestamp, with a configurable tolerance', () => {
    expect(verifySignature(body, header, secret, { now: new Date(at.getTime() + 301_000) })).toBe(false);
    expect(verifySignature(body, header, secret, { now: new Date(at.getTime() - 301_000) })).toBe(false);
    expect(
      verifySignature(body, header, secret, { now: new Date(at.getTime() + 600_000), toleranceSeconds: 900 }),
    ).toBe(true);
  });

  it('accepts any matching v1 among several (secret rotation)', () => {
    const other = signatureHeader('whsec_old', at, body).split(',')[1];
    expect(verifySignature(body, `t=${t},${other},${header.split(',')[1]}`, secret, { now: at })).toBe(true);
    expect(verifySignature(body, `t=${t},${other}`, secret, { now: at })).toBe(false);
  });

  it.each([
    '',
    'garbage',
    `v1=${'a'.repeat(64)}`,
    `t=${t}`,
    `t=${t},v1=abc`,
    `t=${t},v1=${'z'.repeat(64)}`,
    `t=soon,v1=${'a'.repeat(64)}`,
    `t=${t},v0=${'a'.repeat(64)}`,
  ])('rejects the malformed header %j', (bad) => {
    expect(verifySignature(body, bad, secret, { now: at })).toBe(false);
  });
});
