import { Type } from 'typebox';
import { Nullable, NullableTimestamp, Timestamp } from '../../platform/http/schema-types.ts';

export const ShopLogState = Type.Object({
  marketplace_url: Nullable(Type.String()),
  tree_head: Nullable(
    Type.Object({
      tree_size: Type.Integer(),
      timestamp: Type.String(),
      root_hash: Type.String(),
      key_id: Type.String(),
      signature: Type.String(),
    }),
  ),
  checked_at: NullableTimestamp,
  refused_at: NullableTimestamp,
  refused_reason: Nullable(Type.String()),
  served: Type.Array(
    Type.Object({
      marketplace_id: Type.String(),
      version: Type.String(),
      sha256: Type.String(),
      leaf_index: Nullable(Type.Integer()),
      tree_size: Nullable(Type.Integer()),
      refused_reason: Nullable(Type.String()),
      received_at: Timestamp,
    }),
  ),
});
