import type { PluginHost } from '../host.ts';

const STATS_TIMEOUT_MS = 500;

/**
 * How the plugin's code runs on this instance, for `GET /admin/plugins/{id}`: its process, the
 * calls into it (routes, event handlers, providers), their errors and time, its memory (asked of
 * the process itself), restarts and crashes. Null when this instance never ran it.
 */
export async function runtimeJson(host: PluginHost, row: { id: string; manifest_id: string }) {
  const loaded = host.isLoaded(row.manifest_id, row.id);
  const health = host.health.peek(row.id);
  if (!loaded && !health) return null;
  const proc = loaded?.proc;
  let memory: { rss: number; heap_used: number; heap_total: number } | null = null;
  if (proc?.running) {
    memory = await proc.request('stats', {}, STATS_TIMEOUT_MS, false).catch(() => null); // a blocked process cannot answer: shown as unknown
  }
  return {
    running: proc?.running ?? false,
    pid: proc?.running ? (proc.pid ?? null) : null,
    calls: health?.calls ?? 0,
    errors: health?.errors ?? 0,
    timeouts: health?.timeouts ?? 0,
    time_ms: Math.round(health?.timeMs ?? 0),
    avg_ms: health?.calls ? Math.round((health.timeMs / health.calls) * 100) / 100 : null,
    memory,
    restarts: health?.restarts ?? 0,
    crashes: health?.crashes ?? 0,
    crashes_in_window: health?.policy.recent ?? 0,
    last_crash: health?.lastCrash ?? null,
  };
}
