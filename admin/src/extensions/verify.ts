import { isBundleUrl } from './policy.ts';

export async function sha256Hex(bytes: ArrayBuffer): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The extension's code, only from the plugin's admin-bundle URL and only when its bytes hash to
 * the sha256 the plugin list reported (what the install pipeline verified); otherwise it throws
 * and nothing of it runs.
 */
export async function loadVerifiedBundle(pluginId: string, bundle: { url: string; sha256: string }): Promise<string> {
  if (!isBundleUrl(bundle.url, pluginId)) throw new Error(`refused to load a bundle from ${bundle.url}`);
  const res = await fetch(bundle.url, { credentials: 'same-origin', cache: 'no-cache' });
  if (!res.ok) throw new Error(`bundle not available (${res.status})`);
  const bytes = await res.arrayBuffer();
  const actual = await sha256Hex(bytes);
  if (actual !== bundle.sha256)
    throw new Error(`bundle sha256 mismatch: expected ${bundle.sha256.slice(0, 12)}…, got ${actual.slice(0, 12)}…`);
  return new TextDecoder().decode(bytes);
}
