import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, errorOf } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';

let t: TestApp;
let sdk: Sdk;
beforeAll(async () => {
  t = await startTestApp();
  sdk = (await medusaSdks(t)).dashboard;
});
afterAll(() => t.close());

describe('admin refund reasons', () => {
  it('creates, reads, lists, updates and deletes through the Medusa SDK', async () => {
    const { refund_reason: created } = await sdk.admin.refundReason.create({
      label: 'Goodwill',
      code: 'goodwill',
      description: 'A gesture',
    });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^refr_/),
      label: 'Goodwill',
      code: 'goodwill',
      description: 'A gesture',
      metadata: null,
      deleted_at: null,
    });
    expect((await sdk.admin.refundReason.retrieve(created.id)).refund_reason).toEqual(created);
    await sdk.admin.refundReason.create({ label: 'Damaged in transit', code: 'damaged' });

    const all = await sdk.admin.refundReason.list();
    expect(all).toMatchObject({ count: 2, limit: 50, offset: 0 });
    expect(all.refund_reasons.map((r) => r.code)).toEqual(['goodwill', 'damaged']);
    expect((await sdk.admin.refundReason.list({ q: 'TRANSIT' })).refund_reasons.map((r) => r.code)).toEqual([
      'damaged',
    ]);
    expect((await sdk.admin.refundReason.list({ limit: 1, offset: 1 })).refund_reasons.map((r) => r.code)).toEqual([
      'damaged',
    ]);

    const { refund_reason: updated } = await sdk.admin.refundReason.update(created.id, {
      label: 'Goodwill gesture',
      description: null,
    });
    expect(updated).toMatchObject({ id: created.id, label: 'Goodwill gesture', code: 'goodwill', description: null });

    expect(await sdk.admin.refundReason.delete(created.id)).toEqual({
      id: created.id,
      object: 'refund_reason',
      deleted: true,
    });
    const gone = await t.admin('GET', `/admin/refund-reasons/${created.id}`);
    expect(errorOf(gone)).toEqual({ status: 404, type: 'not_found', code: 'refund_reason_not_found' });
    // A deleted reason's code may be used again.
    const again = await t.admin('POST', '/admin/refund-reasons', { label: 'Goodwill', code: 'goodwill' });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('refuses a taken code, a bad body and unknown ids', async () => {
    await sdk.admin.refundReason.create({ label: 'Late', code: 'late' });
    const taken = await t.admin('POST', '/admin/refund-reasons', { label: 'Late again', code: 'late' });
    expect(errorOf(taken)).toEqual({ status: 400, type: 'invalid_data', code: 'refund_reason_code_taken' });
    const { refund_reason: other } = await sdk.admin.refundReason.create({ label: 'Early', code: 'early' });
    const renamed = await t.admin('POST', `/admin/refund-reasons/${other.id}`, { code: 'late' });
    expect(errorOf(renamed)).toEqual({ status: 400, type: 'invalid_data', code: 'refund_reason_code_taken' });
    const noCode = await t.admin('POST', '/admin/refund-reasons', { label: 'No code' });
    expect(errorOf(noCode)).toMatchObject({ status: 400, code: 'invalid_request' });
    const extra = await t.admin('POST', '/admin/refund-reasons', { label: 'x', code: 'x', value: 'x' });
    expect(errorOf(extra)).toMatchObject({ status: 400, code: 'invalid_request' });
    for (const [method, body] of [
      ['POST', { label: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.admin(method, '/admin/refund-reasons/refr_missing', body);
      expect(errorOf(res)).toEqual({ status: 404, type: 'not_found', code: 'refund_reason_not_found' });
    }
  });
});
