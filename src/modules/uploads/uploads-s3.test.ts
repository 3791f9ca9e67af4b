import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { S3_CREDENTIALS, type S3StandIn, startS3StandIn } from '../../../test/s3-stand-in.ts';
import { s3Storage } from './storage.ts';
import { multipart, PNG } from './uploads.testing.ts';

let t: TestApp;
let s3: S3StandIn;
const env = () => ({
  FILE_STORAGE: 's3',
  S3_ENDPOINT: s3.endpoint,
  S3_BUCKET: 'shop-media',
  S3_REGION: S3_CREDENTIALS.region,
  S3_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId,
  S3_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey,
  S3_PUBLIC_URL: 'https://cdn.example.com/media',
});
beforeAll(async () => {
  s3 = await startS3StandIn();
  t = await startTestApp({ env: env() });
});
afterAll(async () => {
  await t.close();
  await s3.close();
});

describe('uploads to an S3-compatible bucket', () => {
  it('PUTs the bytes with a valid SigV4 signature and answers URLs under S3_PUBLIC_URL; DELETE removes them', async () => {
    const { payload, headers } = multipart([['files', 'front.png', PNG]]);
    const res = await t.admin('POST', '/admin/uploads', payload, { headers });
    expect(res.statusCode, res.body).toBe(200);
    const [file] = res.json().files;
    const key = file.url.replace('https://cdn.example.com/media/', '');
    expect(key).toMatch(/^[a-z0-9]+-front\.png$/);
    expect(s3.requests).toEqual([{ method: 'PUT', path: `/shop-media/${key}`, verified: true }]);
    expect(s3.objects.get(`/shop-media/${key}`)).toEqual({ body: PNG, contentType: 'image/png' });
    // The local route serves nothing in this mode: browsers load from the bucket.
    expect((await t.inject({ method: 'GET', url: `/static/uploads/${key}` })).statusCode).toBe(404);

    expect((await t.admin('DELETE', `/admin/uploads/${file.id}`)).statusCode).toBe(200);
    expect(s3.objects.size).toBe(0);
    expect(s3.requests.at(-1)).toEqual({ method: 'DELETE', path: `/shop-media/${key}`, verified: true });
  });

  it('the stand-in refuses a wrong secret, and the upload then fails without a record', async () => {
    const wrong = s3Storage({ ...t.config.storage, secretAccessKey: 'not-the-secret' } as never);
    await expect(wrong.put('x.png', PNG, 'image/png')).rejects.toThrow(/403/);
    expect(s3.requests.at(-1)?.verified).toBe(false);
    const storage = s3Storage(t.config.storage as never);
    await storage.put('y.png', PNG, 'image/png');
    expect(await storage.get('y.png')).toEqual(PNG);
    expect(await storage.get('missing.png')).toBeUndefined();
  });
});
