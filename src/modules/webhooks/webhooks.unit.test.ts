import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Backlog } from './backlog.ts';
import type { ClaimedDelivery } from './delivery-queries.ts';
import { nextRetryAt } from './retry-plan.ts';
import { signatureHeader } from './sign.ts';
import { isPrivateAddress, refusePrivateLiteral } from './url-guard.ts';
import { verifySignature } from './verify-signature.ts';

describe('nextRetryAt', () => {
  const now = new Date('2026-03-01T10:00:00.000Z');
  it.each([
    [1, '2026-03-01T10:01:00.000Z'],
    [2, '2026-03-01T10:05:00.000Z'],
    [3, '2026-03-01T10:30:00.000Z'],
    [4, '2026-03-01T12:00:00.000Z'],
    [5, '2026-03-01T22:00:00.000Z'],
  ])('after failure %i → %s', (n, at) => expect(nextRetryAt(n, now)?.toISOString()).toBe(at));

  it('gives up after the fifth retry failed', () => {
    expect(nextRetryAt(6, now)).toBeNull();
    expect(nextRetryAt(60, now)).toBeNull();
  });

  it('refuses a count below one', () => {
    expect(() => nextRetryAt(0, now)).toThrow(RangeError);
    expect(() => nextRetryAt(1.5, now)).toThrow(RangeError);
  });
});

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.20',
    '169.254.169.254',
    '0.0.0.0',
    '0.1.2.3',
    '::1',
    '::',
    '0:0:0:0:0:0:0:1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'febf::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.1.2.3',
    '::ffff:169.254.169.254',
    '::127.0.0.1',
    'not-an-ip',
    '1.2.3',
    '256.1.1.1',
    '1::2::3',
  ])('blocks %s', (ip) => expect(isPrivateAddress(ip)).toBe(true));

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.15.255.255',
    '172.32.0.1',
    '192.169.0.1',
    '169.253.0.1',
    '11.0.0.1',
    '2001:4860:4860::8888',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    'fec0::1',
    'fe00::1',
  ])('allows %s', (ip) => expect(isPrivateAddress(ip)).toBe(false));

  it('checks IP literals in URLs, brackets included, and leaves names to the lookup', () => {
    expect(() => refusePrivateLiteral(new URL('http://[::1]:8080/x'))).toThrow(/not allowed/);
    expect(() => refusePrivateLiteral(new URL('http://127.1/x'))).toThrow(/not allowed/); // URL parses 127.1 as 127.0.0.1
    expect(() => refusePrivateLiteral(new URL('http://0x7f000001/'))).toThrow(/not allowed/);
    expect(refusePrivateLiteral(new URL('https://8.8.8.8/'))).toBe(true);
    expect(refusePrivateLiteral(new URL('https://example.com/'))).toBe(false);
  });
});

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
    expect(verifySignature(body, header, secret, { now: new Date(at.getTime() + 600_000), toleranceSeconds: 900 })).toBe(true);
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

describe('Backlog', () => {
  const lease = new Date('2026-03-01T10:01:00.000Z');
  const held = (sub: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({ delivery: { id: `${sub}_${i}`, subscription_id: sub } as ClaimedDelivery, leaseUntil: lease }));

  it('starts at most perSubscription per subscription and concurrency in total, oldest first', () => {
    const b = new Backlog(5, 2, 8);
    b.add([...held('a', 4), ...held('b', 4), ...held('c', 1)]);
    const started = b.takeStartable().map((h) => h.delivery.id);
    expect(started).toEqual(['a_0', 'a_1', 'b_0', 'b_1', 'c_0']);
    expect(b).toMatchObject({ running: 5, waiting: 4 });
    expect(b.rooms()).toEqual({ a: 4, b: 4, c: 7 });
    expect(b.takeStartable()).toEqual([]);
  });

  it('lets the next waiting one of a subscription start when one of its requests ends', () => {
    const b = new Backlog(10, 1, 4);
    b.add(held('a', 3));
    expect(b.takeStartable().map((h) => h.delivery.id)).toEqual(['a_0']);
    b.finished('a');
    expect(b.heldBy('a')).toBe(2);
    expect(b.takeStartable().map((h) => h.delivery.id)).toEqual(['a_1']);
    b.finished('a');
    b.takeStartable();
    b.finished('a');
    expect(b).toMatchObject({ running: 0, waiting: 0 });
    expect(b.rooms()).toEqual({});
  });

  it('hands back everything waiting', () => {
    const b = new Backlog(1, 1, 4);
    b.add(held('a', 3));
    b.takeStartable();
    expect(b.takeAllWaiting().map((h) => h.delivery.id)).toEqual(['a_1', 'a_2']);
    expect(b).toMatchObject({ running: 1, waiting: 0 });
  });
});
