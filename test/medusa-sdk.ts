import MedusaSdk from '@medusajs/js-sdk';
import type { TestApp } from './app.ts';

// The SDK's ESM types are read as CommonJS under NodeNext: at run time the default import is the class itself.
export const Medusa = ((MedusaSdk as unknown as { default?: unknown }).default ??
  MedusaSdk) as typeof MedusaSdk.default;
export type Sdk = InstanceType<typeof Medusa>;

/**
 * Medusa's JS SDK pointed at the test app (listening on a free port): `storefront` with the default
 * publishable key (`storefront.store.*`), `dashboard` with the admin's JWT (`dashboard.admin.*`), as a storefront and the Medusa admin would.
 */
export async function medusaSdks(t: TestApp): Promise<{ storefront: Sdk; dashboard: Sdk; baseUrl: string }> {
  const address = t.app.server.listening ? undefined : await t.app.listen({ host: '127.0.0.1', port: 0 });
  const baseUrl = address ?? `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  const storefront = new Medusa({ baseUrl, publishableKey: t.publishableKey });
  const dashboard = new Medusa({ baseUrl, auth: { type: 'jwt', jwtTokenStorageMethod: 'memory' } });
  await dashboard.client.setToken(t.adminToken);
  return { storefront, dashboard, baseUrl };
}

/** The SDK's error as `{ status, message }` (it throws a FetchError); `{ status: 0 }` when the call did not fail. */
export function sdkFailure(call: Promise<unknown>): Promise<{ status?: number; message?: string }> {
  return call.then(
    () => ({ status: 0, message: 'did not fail' }),
    (e: { status?: number; message?: string }) => ({ status: e.status, message: e.message }),
  );
}

/** Runs an SDK call that must fail (throws when it does not): the error's status, message and code. */
export async function sdkRefusal(call: Promise<unknown>): Promise<{ status: number; message: string; code?: string }> {
  try {
    await call;
  } catch (err) {
    const e = err as { status: number; message: string; code?: string };
    return { status: e.status, message: e.message, code: e.code };
  }
  throw new Error('expected the call to fail');
}
