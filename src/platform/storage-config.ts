/** Where uploaded files (product images) go: the local disk under DATA_DIR, or an S3-compatible bucket. */
export type StorageConfig =
  | { kind: 'local'; dir: string; maxBytes: number }
  | {
      kind: 's3';
      /** `https://s3.eu-west-1.amazonaws.com`, `http://127.0.0.1:9000` (MinIO), an R2 endpoint… Path-style requests. */
      endpoint: string;
      region: string;
      bucket: string;
      accessKeyId: string;
      secretAccessKey: string;
      /** Base of the files' public URLs; default `<endpoint>/<bucket>`. */
      publicUrl: string;
      maxBytes: number;
    };

type Env = Record<string, string | undefined>;

const httpUrl = (name: string, raw: string, fail: (m: string) => Error) => {
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw fail(`${name} must be an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, '');
};

export function storageConfig(env: Env, dataDir: string, fail: (message: string) => Error): StorageConfig {
  const raw = env.UPLOAD_MAX_BYTES;
  const maxBytes = raw ? Number(raw) : 10 * 1024 * 1024;
  if (!Number.isInteger(maxBytes) || maxBytes <= 0)
    throw fail(`UPLOAD_MAX_BYTES must be a positive integer, got "${raw}"`);
  const kind = env.FILE_STORAGE || 'local';
  if (kind === 'local') return { kind, dir: `${dataDir}/uploads`, maxBytes };
  if (kind !== 's3') throw fail(`FILE_STORAGE must be local or s3, got "${kind}"`);
  const missing = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'].filter((n) => !env[n]);
  if (missing.length) throw fail(`FILE_STORAGE=s3 needs ${missing.join(', ')}`);
  const endpoint = httpUrl('S3_ENDPOINT', env.S3_ENDPOINT!, fail);
  const bucket = env.S3_BUCKET!;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    throw fail(`S3_BUCKET is not a valid bucket name: "${bucket}"`);
  return {
    kind,
    endpoint,
    region: env.S3_REGION || 'us-east-1',
    bucket,
    accessKeyId: env.S3_ACCESS_KEY_ID!,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
    publicUrl: env.S3_PUBLIC_URL ? httpUrl('S3_PUBLIC_URL', env.S3_PUBLIC_URL, fail) : `${endpoint}/${bucket}`,
    maxBytes,
  };
}
