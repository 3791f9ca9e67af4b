// Server entry: registered by the shop at install and at every start.

/** @type {import('@emporium/plugin-sdk').Plugin} */
export default {
  register(ctx) {
    const prefix = ctx.config.note_prefix ? `${ctx.config.note_prefix} ` : '';

    // The same event may arrive twice: `on conflict do nothing` keeps one note per order.
    ctx.on('order.placed', async (event) => {
      const { id, email } = event.payload;
      await ctx.db.query('insert into order_notes (order_id, note) values ($1, $2) on conflict (order_id) do nothing', [
        id,
        `${prefix}Order ${id} placed${email ? ` by ${email}` : ''}`,
      ]);
      ctx.logger.info('note written', { order_id: id });
    });

    ctx.routes.admin('GET', '/notes', async (req) => {
      const limit = Math.min(Number(req.query.limit ?? 50) || 50, 200);
      const notes = await ctx.db.query('select order_id, note, created_at from order_notes order by id desc limit $1', [
        limit,
      ]);
      return { notes };
    });

    ctx.routes.admin('GET', '/notes/:orderId', async (req) => {
      const [note] = await ctx.db.query('select order_id, note, created_at from order_notes where order_id = $1', [
        req.params.orderId,
      ]);
      if (!note) throw Object.assign(new Error(`No note for order ${req.params.orderId}`), { status: 404 });
      return { note };
    });

    // Needs `orders:read` in the manifest's permissions: the order as the admin API shows it.
    ctx.routes.admin('GET', '/orders/:orderId/summary', async (req) => {
      const order = await ctx.orders.retrieve(req.params.orderId);
      if (!order) throw Object.assign(new Error(`Order ${req.params.orderId} not found`), { status: 404 });
      const items = Array.isArray(order.items) ? order.items : [];
      return { order_id: order.id, email: order.email ?? null, total: order.total ?? null, item_count: items.length };
    });
  },
};
