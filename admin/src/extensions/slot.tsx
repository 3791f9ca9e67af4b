import { safeMode } from '../lib/safe-mode.ts';
import { ExtensionFrame, type ExtensionPlugin } from './extension-frame.tsx';
import { useApi } from '../lib/api-hooks.ts';

interface PluginRow extends ExtensionPlugin {
  status: string;
}

export const PLUGINS_KEY = ['plugins'] as const;

/** The installed plugins (one call, shared with the Plugins area through the query cache). */
export function usePlugins() {
  return useApi<{ plugins: PluginRow[]; count: number }>(PLUGINS_KEY, '/admin/plugins', { limit: 200 });
}

/**
 * A place where plugins' admin extensions appear (`dashboard`, `order.details`, `product.details`).
 * Every installed plugin with a verified admin bundle gets a sandboxed frame; in safe mode, none.
 */
export function ExtensionSlot({ name }: { name: string }) {
  const plugins = usePlugins();
  if (safeMode) return <p className="note note-warn">Safe mode: plugin extensions are not loaded.</p>;
  const withBundle = (plugins.data?.plugins ?? []).filter((p) => p.status === 'installed' && p.admin_bundle);
  if (!withBundle.length) return null;
  return (
    <div className="ext-slot" data-slot={name}>
      {withBundle.map((p) => (
        <ExtensionFrame key={`${p.id}:${p.admin_bundle!.sha256}`} plugin={p} slot={name} />
      ))}
    </div>
  );
}
