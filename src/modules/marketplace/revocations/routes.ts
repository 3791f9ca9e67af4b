import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ok } from '../../../platform/http/responses.ts';
import { IdParams, Nullable } from '../../../platform/http/schema-types.ts';
import type { App, AppDeps } from '../../../platform/http/types.ts';
import { assertMayRevoke, revokeItem, revokeSigningKey } from './revocations.ts';
import { signedRevocationList } from './signed-list.ts';

const Revocation = Type.Object({
  sequence: Type.Integer(),
  kind: Type.Union([Type.Literal('version'), Type.Literal('item'), Type.Literal('key')]),
  marketplace_id: Nullable(Type.String()),
  version: Nullable(Type.String()),
  key_id: Nullable(Type.String()),
  severity: Type.Union([Type.Literal('critical'), Type.Literal('warning')]),
  reason: Type.String(),
  revoked_at: Type.String(),
});
const RevocationEnvelope = Type.Object({ revocation: Revocation });
const RevocationList = Type.Object({
  sequence: Type.Integer(),
  issued_at: Type.String(),
  revocations: Type.Array(Revocation),
  key_id: Type.String(),
  signature: Type.String({
    description: 'base64 Ed25519 over "emporium-revocations-v1\\n" + JSON of the first three fields',
  }),
});
const RevokeBody = Type.Object(
  {
    severity: Type.Union([Type.Literal('critical'), Type.Literal('warning')]),
    reason: Type.String({ minLength: 1, maxLength: 2000 }),
  },
  { additionalProperties: false },
);
const VersionParams = Type.Object({ id: Type.String({ maxLength: 200 }), version_id: Type.String({ maxLength: 200 }) });
const KeyParams = Type.Object({ key_id: Type.String({ maxLength: 64 }) });
const tags = ['marketplace (revocations)'];

const ownerFirst = async (req: FastifyRequest) => assertMayRevoke(req.ctx, String((req.params as { id?: unknown }).id));

/** Inside /admin/marketplace: the operator or the owning vendor revokes; keys are the operator's alone. */
export function registerRevocationAdminRoutes(scope: App): void {
  scope.post(
    '/items/:id/revoke',
    {
      config: { vendorScope: 'publish' },
      preValidation: ownerFirst,
      schema: {
        tags,
        summary: 'Revoke every version of an item',
        params: IdParams,
        body: RevokeBody,
        response: ok(RevocationEnvelope),
      },
    },
    async (req) => ({ revocation: await revokeItem(req.ctx, req.params.id, undefined, req.body) }),
  );
  scope.post(
    '/items/:id/versions/:version_id/revoke',
    {
      config: { vendorScope: 'publish' },
      preValidation: ownerFirst,
      schema: {
        tags,
        summary: 'Revoke one version',
        params: VersionParams,
        body: RevokeBody,
        response: ok(RevocationEnvelope),
      },
    },
    async (req) => ({ revocation: await revokeItem(req.ctx, req.params.id, req.params.version_id, req.body) }),
  );
  scope.post(
    '/keys/:key_id/revoke',
    {
      schema: {
        tags,
        summary: 'Revoke a signing key (a new one signs from now on)',
        params: KeyParams,
        body: RevokeBody,
        response: ok(RevocationEnvelope),
      },
    },
    async (req) => ({ revocation: await revokeSigningKey(req.ctx, req.params.key_id, req.body) }),
  );
}

/** Inside /store/marketplace: the signed list every shop polls. */
export function registerRevocationListRoute(scope: App, deps: AppDeps): void {
  scope.get(
    '/revocations',
    {
      schema: { tags, summary: 'The signed revocation list (Ed25519, sequence number)', response: ok(RevocationList) },
    },
    async (req) => signedRevocationList(req.ctx, deps.config.encryptionKey),
  );
}
