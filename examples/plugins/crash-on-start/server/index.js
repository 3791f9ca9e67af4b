// A bad release on purpose (used by the crash-loop rollback test, docs/marketplace-trust.md):
// it loads, then its process dies shortly after every start, as a plugin with a fatal bug would.
export default {
  register(ctx) {
    ctx.routes.admin('GET', '/alive', () => ({ alive: ctx.plugin.version }));
    setTimeout(() => process.exit(1), 30);
  },
};
