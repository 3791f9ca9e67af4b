import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

export interface PostResult {
  status: number;
  /** The first `keepBytes` of the response body, as UTF-8. */
  body: string;
}

export interface PostOptions {
  signal: AbortSignal;
  keepBytes: number;
  lookup?: LookupFunction;
}

/** Past this much response body the connection is dropped instead of read to the end. */
const MAX_DRAIN_BYTES = 64 * 1024;

/**
 * Keep-alive connection pools for the delivery engine. node:http rather than fetch: it takes a
 * connect-time `lookup` (the SSRF guard) without an extra dependency.
 */
export function createAgents(): { http: http.Agent; https: https.Agent; destroy(): void } {
  const agents = {
    http: new http.Agent({ keepAlive: true, scheduling: 'lifo' }),
    https: new https.Agent({ keepAlive: true, scheduling: 'lifo' }),
  };
  return {
    ...agents,
    destroy: () => {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

/** POSTs `body` and resolves once the whole answer arrived (or rejects on error or abort). */
export function postBody(
  url: URL,
  body: string,
  headers: Record<string, string>,
  agents: { http: http.Agent; https: https.Agent },
  opts: PostOptions,
): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const secure = url.protocol === 'https:';
    const request = (secure ? https : http).request(url, {
      method: 'POST',
      agent: secure ? agents.https : agents.http,
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      signal: opts.signal,
      ...(opts.lookup ? { lookup: opts.lookup } : {}),
    });
    request.on('error', reject);
    request.on('response', (res) => {
      const kept: Buffer[] = [];
      let keptBytes = 0;
      let total = 0;
      const done = () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(kept).toString('utf8') });
      res.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (keptBytes < opts.keepBytes) {
          const part = chunk.subarray(0, opts.keepBytes - keptBytes);
          kept.push(part);
          keptBytes += part.length;
        }
        if (total > MAX_DRAIN_BYTES) {
          res.destroy();
          done();
        }
      });
      res.on('end', done);
      res.on('error', reject);
    });
    request.end(body);
  });
}
