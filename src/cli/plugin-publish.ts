import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { packPackage } from '../plugin-package/pack-package.ts';
import { readPackage } from '../plugin-package/read-package.ts';
import { UsageError } from './usage-error.ts';

export class PublishError extends Error {}

/**
 * `emporium plugin publish <file|dir> --marketplace <url> --token <admin token> [--price-eur n]
 * [--billing one_time|monthly|yearly] [--changelog-url u] [--description text] [--rollout-percent n]`: uploads to `POST /admin/marketplace/items` as
 * multipart. A folder is packed first. `fetchImpl` lets tests publish without a socket.
 */
export async function pluginPublish(argv: string[], fetchImpl: typeof fetch = fetch): Promise<Record<string, unknown>> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      marketplace: { type: 'string' },
      token: { type: 'string' },
      'price-eur': { type: 'string' },
      billing: { type: 'string' },
      'changelog-url': { type: 'string' },
      description: { type: 'string' },
      'rollout-percent': { type: 'string' },
    },
  });
  if (positionals.length !== 1) throw new UsageError('plugin publish takes one .tgz file (or a plugin folder)');
  if (!values.marketplace || !values.token) throw new UsageError('--marketplace and --token are required');
  const source = positionals[0];
  const bytes = statSync(source).isDirectory() ? await packPackage(source) : readFileSync(source);
  const { manifest, sha256 } = await readPackage(bytes); // refuse locally what the marketplace would refuse

  const form = new FormData();
  if (values['price-eur'] !== undefined) form.append('price_eur', values['price-eur']);
  if (values.billing !== undefined) form.append('billing', values.billing);
  if (values['changelog-url'] !== undefined) form.append('changelog_url', values['changelog-url']);
  if (values.description !== undefined) form.append('description', values.description);
  if (values['rollout-percent'] !== undefined) form.append('rollout_percent', values['rollout-percent']);
  form.append(
    'file',
    new Blob([new Uint8Array(bytes)], { type: 'application/gzip' }),
    path.basename(source).replace(/(\.tgz)?$/, '.tgz'),
  );

  const url = `${values.marketplace.replace(/\/$/, '')}/admin/marketplace/items`;
  const res = await fetchImpl(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${values.token}` },
    body: form,
  });
  const body = (await res.json().catch(() => ({}))) as { item?: Record<string, unknown>; message?: string };
  if (!res.ok || !body.item)
    throw new PublishError(`Publishing failed (${res.status}): ${body.message ?? res.statusText}`);
  const item = body.item;
  console.log(
    `Published ${item.marketplace_id}@${manifest.version} (sha256 ${sha256}, ${item.price_eur ? `${item.price_eur} EUR` : 'free'})`,
  );
  // Not yet (or never) listed: in review, or a failed automatic check; say so rather than let it pass.
  const versions = (item.versions ?? []) as { version: string; status: string; review_reason: string | null }[];
  const mine = versions.find((v) => v.version === manifest.version);
  if (mine && mine.status !== 'approved')
    console.log(
      `Not listed: ${mine.status === 'in_review' ? 'waiting in review' : mine.status}${mine.review_reason ? ` (${mine.review_reason})` : ''}`,
    );
  return item;
}
