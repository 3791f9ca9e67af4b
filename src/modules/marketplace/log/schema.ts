import { Type } from 'typebox';

const Hex = Type.String({ description: 'lower-case hex SHA-256' });

export const TreeHeadSchema = Type.Object({
  tree_size: Type.Integer(),
  timestamp: Type.String({ description: 'time of the newest entry (the epoch for an empty log)' }),
  root_hash: Hex,
  key_id: Type.String(),
  signature: Type.String({
    description: 'base64 Ed25519 over "emporium-sth-v1\\n<tree_size>\\n<timestamp>\\n<root_hash>"',
  }),
});

export const LogEntrySchema = Type.Object({
  leaf_index: Type.Integer(),
  marketplace_id: Type.String(),
  version: Type.String(),
  sha256: Hex,
  key_id: Type.String(),
  logged_at: Type.String(),
});

export const InclusionSchema = Type.Object({
  leaf_index: Type.Integer(),
  tree_size: Type.Integer(),
  entry: LogEntrySchema,
  audit_path: Type.Array(Hex),
});

/** What a download descriptor carries: the inclusion proof under a signed head of the same size. */
export const DescriptorLogSchema = Type.Object({ ...InclusionSchema.properties, sth: TreeHeadSchema });

const Size = Type.Integer({ minimum: 0, maximum: 2_147_483_647 });

export const SthQuery = Type.Object({ tree_size: Type.Optional(Size) }, { additionalProperties: false });
export const ProofQuery = Type.Object(
  {
    leaf_index: Type.Optional(Size),
    marketplace_id: Type.Optional(Type.String({ maxLength: 200 })),
    version: Type.Optional(Type.String({ maxLength: 100 })),
    sha256: Type.Optional(Type.String({ pattern: '^[0-9a-f]{64}$' })),
    tree_size: Type.Optional(Size),
  },
  { additionalProperties: false },
);
export const ConsistencyQuery = Type.Object({ first: Size, second: Size }, { additionalProperties: false });
export const ConsistencySchema = Type.Object({ first: Type.Integer(), second: Type.Integer(), proof: Type.Array(Hex) });
export const EntriesQuery = Type.Object(
  { start: Type.Optional(Size), end: Type.Optional(Size) },
  { additionalProperties: false },
);
export const EntriesSchema = Type.Object({ entries: Type.Array(LogEntrySchema) });
