import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { App } from '../../platform/http/types.ts';
import { LicenseEnvelope, LicenseList, LicensesQuery, RenewBody } from './licence-schema.ts';
import { getLicence, listLicences, renewLicence, revokeLicence } from './licences.ts';

const tags = ['marketplace (vendor)'];

/** The operator's licence desk, inside /admin/marketplace (marketplace role). */
export function registerLicenceAdminRoutes(scope: App): void {
  scope.get(
    '/licenses',
    { schema: { tags, summary: 'Issued licences, newest first', querystring: LicensesQuery, response: ok(LicenseList) } },
    async (req) => listLicences(req.ctx, req.query),
  );

  scope.get(
    '/licenses/:id',
    { schema: { tags, summary: 'One licence', params: IdParams, response: ok(LicenseEnvelope) } },
    async (req) => ({ license: await getLicence(req.ctx, req.params.id) }),
  );

  scope.post(
    '/licenses/:id/revoke',
    { schema: { tags, summary: 'Revoke: verify answers `revoked` and paid downloads stop', params: IdParams, response: ok(LicenseEnvelope) } },
    async (req) => ({ license: await revokeLicence(req.ctx, req.params.id) }),
  );

  scope.post(
    '/licenses/:id/renew',
    {
      schema: { tags, summary: 'Extend by `days` (default 365) from the expiry, or from now if lapsed', params: IdParams, body: RenewBody, response: ok(LicenseEnvelope) },
      // Every field is optional, so a bare POST (no body at all) is a renewal by the default period.
      preValidation: async (req) => void (req.body ??= {}),
    },
    async (req) => ({ license: await renewLicence(req.ctx, req.params.id, req.body.days) }),
  );
}
