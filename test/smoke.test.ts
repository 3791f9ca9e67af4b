import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('platform', () => {
  it('answers /health', async () => {
    const res = await t.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });
  it('unknown route is a 404 in the error shape', async () => {
    const res = await t.inject({ method: 'GET', url: '/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json().type).toBe('not_found');
  });
  it('serves users/me', async () => {
    const res = await t.admin('GET', '/admin/users/me');
    expect(res.statusCode).toBe(200);
    expect(res.json().user.email).toBe('admin@example.com');
  });
  it('openapi', async () => {
    const res = await t.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).toContain('/admin/users/me');
  });
});
