// Run-time half of the SDK (types in index.ts): plugins may import it when they bundle it.
export function definePlugin(plugin) {
  return plugin;
}
