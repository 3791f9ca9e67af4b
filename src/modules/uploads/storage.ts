import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AwsClient } from 'aws4fetch';
import type { StorageConfig } from '../../platform/storage-config.ts';

/** Where the bytes of uploaded files live. Keys are made by the service (safe characters only). */
export interface FileStorage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The bytes, or undefined when there is no such file. Only the local storage is read through us. */
  get(key: string): Promise<Buffer | undefined>;
  delete(key: string): Promise<void>;
  /** The absolute URL a browser loads the file from. */
  url(key: string): string;
}

/** Files under `dir`, served by this app at `<PUBLIC_URL>/static/uploads/<key>`. */
export function localStorage(dir: string, publicUrl: string): FileStorage {
  const file = (key: string) => path.join(dir, path.basename(key));
  return {
    async put(key, body) {
      await mkdir(dir, { recursive: true });
      // `wx`: a key is never overwritten (they are unique; this is the belt to that brace).
      await writeFile(file(key), body, { flag: 'wx', mode: 0o644 });
    },
    async get(key) {
      try {
        return await readFile(file(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    async delete(key) {
      await rm(file(key), { force: true });
    },
    url: (key) => `${publicUrl}/static/uploads/${key}`,
  };
}

/**
 * An S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, …) over its REST API with path-style
 * URLs, requests signed with AWS Signature V4 by aws4fetch. Files are read by browsers straight
 * from the bucket's public URL, so the bucket (or a CDN before it) must allow public reads.
 */
export function s3Storage(cfg: Extract<StorageConfig, { kind: 's3' }>, timeoutMs = 15_000): FileStorage {
  const client = new AwsClient({
    accessKeyId: cfg.accessKeyId,
    secretAccessKey: cfg.secretAccessKey,
    region: cfg.region,
    service: 's3',
    retries: 2,
  });
  const objectUrl = (key: string) => `${cfg.endpoint}/${cfg.bucket}/${encodeURIComponent(key)}`;
  const call = async (method: string, key: string, init: RequestInit = {}) => {
    const res = await client.fetch(objectUrl(key), { method, ...init, signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok && !(method === 'GET' && res.status === 404) && !(method === 'DELETE' && res.status === 404)) {
      throw new Error(`S3 ${method} ${key} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    }
    return res;
  };
  return {
    async put(key, body, contentType) {
      // The payload's hash is signed too, so the bucket refuses bytes changed on the way.
      const sha256 = createHash('sha256').update(body).digest('hex');
      await call('PUT', key, {
        body: new Uint8Array(body),
        headers: { 'content-type': contentType, 'x-amz-content-sha256': sha256 },
      });
    },
    async get(key) {
      const res = await call('GET', key);
      return res.status === 404 ? undefined : Buffer.from(await res.arrayBuffer());
    },
    async delete(key) {
      await call('DELETE', key);
    },
    url: (key) => `${cfg.publicUrl}/${encodeURIComponent(key)}`,
  };
}

const cache = new WeakMap<StorageConfig, FileStorage>();

export function storageFor(cfg: StorageConfig, publicUrl: string): FileStorage {
  let storage = cache.get(cfg);
  if (!storage) {
    storage = cfg.kind === 'local' ? localStorage(cfg.dir, publicUrl) : s3Storage(cfg);
    cache.set(cfg, storage);
  }
  return storage;
}
