import type { FederationConfig } from '../../platform/config.ts';
import type { ErrorCode } from '../../platform/http/error-codes.ts';
import { AppError } from '../../platform/http/errors.ts';
import { PACKAGE_VERSION } from '../../platform/package-root.ts';

/**
 * A failed call to the marketplace. The admin always gets a 502 (`bad_gateway`): the shop itself
 * keeps working. `upstreamStatus` is the marketplace's own status when it answered (404, 403…).
 */
export class MarketplaceError extends AppError {
  constructor(
    message: string,
    readonly upstreamStatus?: number,
  ) {
    super('bad_gateway', message, { code: 'federation_upstream_failed' satisfies ErrorCode });
  }
}

type Query = Record<string, string | undefined>;

/**
 * The shop's HTTP client of its marketplace. It only ever sends what the request
 * names: marketplace ids, versions, license keys and the instance token, plus the publishable key
 * the operator configured. No cookies, no shop data.
 */
export class MarketplaceClient {
  constructor(readonly fed: FederationConfig) {}

  get url(): string {
    return this.fed.url;
  }

  /** GET a JSON document under the marketplace's base URL. */
  async getJson<T>(path: string, query: Query = {}): Promise<T> {
    const url = new URL(`${this.fed.url}${path}`);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);
    const res = await this.send(url.toString(), {
      accept: 'application/json',
      'x-publishable-api-key': this.fed.publishableKey,
    });
    return this.readJson<T>(path, res);
  }

  private async readJson<T>(path: string, res: Response): Promise<T> {
    const text = await res.text().catch(() => '');
    if (!res.ok)
      throw new MarketplaceError(`Marketplace refused ${path} (${res.status}): ${errorMessage(text)}`, res.status);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new MarketplaceError(`Marketplace unreachable: ${path} answered something that is not JSON`);
    }
  }

  /** POST a JSON body (checkout, license verification) and read the JSON answer. */
  async postJson<T>(path: string, body: Record<string, string | number>): Promise<T> {
    const headers = {
      accept: 'application/json',
      'content-type': 'application/json',
      'x-publishable-api-key': this.fed.publishableKey,
    };
    const res = await this.send(`${this.fed.url}${path}`, headers, { method: 'POST', body: JSON.stringify(body) });
    return this.readJson<T>(path, res);
  }

  /** The bytes behind a signed download URL, refused past `maxBytes` without reading further. */
  async download(url: string, maxBytes: number): Promise<Buffer> {
    const res = await this.send(url, { accept: 'application/gzip, application/octet-stream' });
    if (!res.ok)
      throw new MarketplaceError(
        `Marketplace refused the download (${res.status}): ${errorMessage(await res.text().catch(() => ''))}`,
        res.status,
      );
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (declared > maxBytes) {
      await res.body?.cancel();
      throw new MarketplaceError(`Artifact is ${declared} bytes, above the ${maxBytes}-byte limit`);
    }
    const chunks: Buffer[] = [];
    let total = 0;
    try {
      for await (const chunk of res.body ?? []) {
        total += chunk.length;
        if (total > maxBytes) throw new MarketplaceError(`Artifact is larger than the ${maxBytes}-byte limit`);
        chunks.push(Buffer.from(chunk));
      }
    } catch (err) {
      throw this.unreachable(err);
    }
    return Buffer.concat(chunks);
  }

  private async send(
    url: string,
    headers: Record<string, string>,
    init: { method?: string; body?: string } = {},
  ): Promise<Response> {
    try {
      return await fetch(url, {
        ...init,
        headers: { ...headers, 'user-agent': `emporium/${PACKAGE_VERSION}` },
        redirect: 'error',
        signal: AbortSignal.timeout(this.fed.timeoutMs),
      }).then((res) => {
        if (res.status >= 500)
          throw new MarketplaceError(
            `Marketplace unreachable: ${new URL(url).pathname} answered ${res.status}`,
            res.status,
          );
        return res;
      });
    } catch (err) {
      throw this.unreachable(err);
    }
  }

  private unreachable(err: unknown): MarketplaceError {
    if (err instanceof MarketplaceError) return err;
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const reason =
      e.name === 'TimeoutError'
        ? `no answer within ${this.fed.timeoutMs} ms`
        : (e.cause?.code ?? e.cause?.message ?? e.message);
    return new MarketplaceError(`Marketplace unreachable: ${reason}`);
  }
}

/** The `{ type, message }` the marketplace sent, or the start of whatever it sent. */
function errorMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === 'string') return body.message;
  } catch {
    // not JSON: fall through
  }
  return text.slice(0, 200) || 'no details';
}

/** The configured marketplace, or null when the shop is not federated (local plugins only). */
export function marketplaceClient(fed: FederationConfig | undefined): MarketplaceClient | null {
  return fed ? new MarketplaceClient(fed) : null;
}
