import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AwsV4Signer } from 'aws4fetch';

export const S3_CREDENTIALS = {
  accessKeyId: 'AKIDSTANDIN',
  secretAccessKey: 'stand-in-secret-key',
  region: 'eu-west-3',
};

export interface S3StandIn {
  endpoint: string;
  objects: Map<string, { body: Buffer; contentType: string }>;
  requests: { method: string; path: string; verified: boolean }[];
  close(): Promise<void>;
}

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

/**
 * A local server that speaks the S3 object API (path-style PUT, GET, DELETE) and checks each
 * request's AWS Signature V4 by signing it again with the known secret: a wrong key, a changed
 * header or a body that does not match its signed hash is refused with 403, as S3 does.
 */
export async function startS3StandIn(): Promise<S3StandIn> {
  const objects = new Map<string, { body: Buffer; contentType: string }>();
  const requests: S3StandIn['requests'] = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const auth = String(req.headers.authorization ?? '');
    const signed = /SignedHeaders=([^,]+)/.exec(auth)?.[1]?.split(';') ?? [];
    const headers: Record<string, string> = {};
    for (const h of signed) if (h !== 'host') headers[h] = String(req.headers[h] ?? '');
    const url = `http://${req.headers.host}${req.url}`;
    const expected = await new AwsV4Signer({
      ...S3_CREDENTIALS,
      service: 's3',
      method: req.method,
      url,
      headers,
      datetime: String(req.headers['x-amz-date'] ?? ''),
    }).sign();
    const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
    const verified =
      expected.headers.get('authorization') === auth &&
      (payloadHash === 'UNSIGNED-PAYLOAD' || payloadHash === createHash('sha256').update(body).digest('hex'));
    const path = decodeURIComponent(new URL(url).pathname);
    requests.push({ method: req.method ?? '', path, verified });
    if (!verified) {
      res
        .writeHead(403, { 'content-type': 'application/xml' })
        .end('<Error><Code>SignatureDoesNotMatch</Code></Error>');
      return;
    }
    if (req.method === 'PUT') {
      objects.set(path, { body, contentType: String(req.headers['content-type'] ?? '') });
      res.writeHead(200).end();
    } else if (req.method === 'GET') {
      const found = objects.get(path);
      if (!found) res.writeHead(404).end('<Error><Code>NoSuchKey</Code></Error>');
      else res.writeHead(200, { 'content-type': found.contentType }).end(found.body);
    } else if (req.method === 'DELETE') {
      objects.delete(path);
      res.writeHead(204).end();
    } else res.writeHead(405).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    objects,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
