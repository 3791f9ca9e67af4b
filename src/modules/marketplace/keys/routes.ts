import { Type } from 'typebox';
import { ok } from '../../../platform/http/responses.ts';
import type { App } from '../../../platform/http/types.ts';
import { publishedKeys } from './signing-keys.ts';

const KeysResponse = Type.Object({
  keys: Type.Array(
    Type.Object({
      key_id: Type.String(),
      alg: Type.Literal('Ed25519'),
      public_key: Type.String({ description: 'base64 of the raw 32-byte key' }),
      revoked_at: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});

/** Inside /store/marketplace: the keys shops pin to check artifact signatures, callbacks and license tokens. */
export function registerKeyRoutes(scope: App): void {
  scope.get(
    '/keys',
    {
      schema: {
        tags: ['marketplace (federation)'],
        summary: 'Ed25519 public keys that sign artifacts',
        response: ok(KeysResponse),
      },
    },
    async (req) => ({
      keys: await publishedKeys(req.ctx),
    }),
  );
}
