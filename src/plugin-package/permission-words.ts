import type { PluginManifest } from './manifest.ts';

/**
 * What a manifest asks for, one plain sentence per right, as a reviewer or an operator reads it
 * before approving or installing. A manifest without `permissions` keeps the rights plugins always
 * had, and says so.
 */
export function permissionsInWords(manifest: PluginManifest): string[] {
  const p = manifest.permissions;
  const words: string[] = [];
  if (!p) words.push('Declares no permissions: runs with the rights every plugin had before permissions existed');
  for (const event of p?.events ?? []) words.push(`Receives the shop's "${event}" events`);
  for (const api of p?.apis ?? []) if (api === 'orders:read') words.push("Reads the shop's orders");
  if (p?.routes?.admin) words.push('Serves its own routes under /admin (signed-in staff)');
  if (p?.routes?.store) words.push('Serves its own routes under /store (anyone on the internet)');
  for (const kind of p?.providers ?? [])
    words.push(kind === 'payments' ? 'Takes payments as a payment provider' : 'Sends notifications as a provider');
  for (const host of p?.hosts ?? [])
    words.push(host === '*' ? 'Connects to a host the operator configures' : `Connects to ${host}`);
  if (manifest.admin) words.push("Runs an extension in the operator's admin panel, with the operator's session");
  for (const method of manifest.admin_api?.methods ?? []) words.push(`Sends ${method} requests to the admin API`);
  if (manifest.migrations) words.push('Creates and changes tables in its own database schema');
  return words;
}
