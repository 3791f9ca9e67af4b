import { emptyBodyIsObject } from '../../../platform/http/body.ts';
import { ok } from '../../../platform/http/responses.ts';
import { IdParams } from '../../../platform/http/schema-types.ts';
import type { App } from '../../../platform/http/types.ts';
import { LicenseEnvelope, LicenseList, LicensesQuery, RenewBody } from './schema.ts';
import { actingNamespaces, selfVendorId } from '../vendors/lookup.ts';
import { getLicense, listLicenses, renewLicense, revokeLicense } from './licenses.ts';

const tags = ['marketplace (vendor)'];

/** The operator's license desk, inside /admin/marketplace (marketplace role). */
export function registerLicenseAdminRoutes(scope: App): void {
  scope.get(
    '/licenses',
    {
      schema: { tags, summary: 'Issued licenses, newest first', querystring: LicensesQuery, response: ok(LicenseList) },
    },
    async (req) => listLicenses(req.ctx, req.query),
  );

  scope.get(
    '/vendor/licenses',
    {
      config: { vendorScope: 'read' },
      schema: {
        tags: ['marketplace (vendor self)'],
        summary: "Licences of the acting vendor's items, newest first",
        querystring: LicensesQuery,
        response: ok(LicenseList),
      },
    },
    async (req) => {
      selfVendorId(req.ctx, '/admin/marketplace/licenses');
      return listLicenses(req.ctx, req.query, (await actingNamespaces(req.ctx)) ?? []);
    },
  );
  scope.get(
    '/licenses/:id',
    { schema: { tags, summary: 'One license', params: IdParams, response: ok(LicenseEnvelope) } },
    async (req) => ({ license: await getLicense(req.ctx, req.params.id) }),
  );

  scope.post(
    '/licenses/:id/revoke',
    {
      schema: {
        tags,
        summary: 'Revoke: verify answers `revoked` and paid downloads stop',
        params: IdParams,
        response: ok(LicenseEnvelope),
      },
    },
    async (req) => ({ license: await revokeLicense(req.ctx, req.params.id) }),
  );

  scope.post(
    '/licenses/:id/renew',
    {
      schema: {
        tags,
        summary: 'Extend by `days` (default 365) from the expiry, or from now if lapsed',
        params: IdParams,
        body: RenewBody,
        response: ok(LicenseEnvelope),
      },
      // Every field is optional, so a bare POST (no body at all) is a renewal by the default period.
      preValidation: emptyBodyIsObject,
    },
    async (req) => ({ license: await renewLicense(req.ctx, req.params.id, req.body.days) }),
  );
}
