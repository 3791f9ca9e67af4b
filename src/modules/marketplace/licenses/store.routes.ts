import { ok } from '../../../platform/http/responses.ts';
import type { App, AppDeps } from '../../../platform/http/types.ts';
import { verifyLicense } from './licenses.ts';
import { VerifyBody, VerifyResponse } from './schema.ts';

/** Inside /store/marketplace: a shop asks whether its license holds (and keeps the signed token as offline proof). */
export function registerLicenseVerifyRoute(scope: App, deps: AppDeps): void {
  const signing = { encryptionKey: deps.config.encryptionKey, publicUrl: deps.config.publicUrl };
  scope.post(
    '/license/verify',
    {
      schema: {
        tags: ['marketplace (federation)'],
        summary: 'Verify a license for an item and instance; valid answers carry a signed token',
        body: VerifyBody,
        response: ok(VerifyResponse),
      },
    },
    async (req) => verifyLicense(req.ctx, signing, req.body),
  );
}
