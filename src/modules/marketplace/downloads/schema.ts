import { Type } from 'typebox';
import { Timestamp } from '../../../platform/http/schema-types.ts';
import { DescriptorLogSchema } from '../log/schema.ts';

export const DownloadQuery = Type.Object({
  license_key: Type.Optional(Type.String({ maxLength: 200 })),
  instance_id: Type.Optional(Type.String({ maxLength: 200 })),
});

export const Descriptor = Type.Object({
  url: Type.String({ description: 'signed, valid 15 minutes' }),
  expires_at: Timestamp,
  sha256: Type.String({ description: 'lower-case hex' }),
  size: Type.Integer(),
  signature: Type.String({ description: 'base64 Ed25519 signature over `<marketplace_id>@<version>:<sha256>`' }),
  key_id: Type.String(),
  log: Type.Union([DescriptorLogSchema, Type.Null()], {
    description: 'where the transparency log holds this artifact: inclusion proof under a signed tree head',
  }),
});

export const ArtifactQuery = Type.Object({
  expires: Type.Optional(Type.String({ maxLength: 20 })),
  signature: Type.Optional(Type.String({ maxLength: 200 })),
});

export const ArtifactBytes = Type.Unsafe<Buffer>({
  type: 'string',
  format: 'binary',
  description: 'the .tgz (application/gzip)',
});
