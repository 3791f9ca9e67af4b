// Paid integration: the shop loads it only while its license verifies.

/** Order totals are integers in minor units (cents). */
function pointsFor(total, perEuro) {
  return Math.floor(((Number(total) || 0) / 100) * perEuro);
}

/** @type {import('@emporium/plugin-sdk').Plugin} */
export default {
  register(ctx) {
    const perEuro = Number(ctx.config.points_per_euro ?? 1);

    ctx.on('order.placed', async (event) => {
      const { id, email, total } = event.payload;
      if (!email) return;
      const [{ orders }] = await ctx.db.query(
        'select count(*)::int as orders from loyalty_ledger where lower(email) = lower($1)',
        [email],
      );
      const bonus = ctx.config.welcome_bonus && orders === 0 ? 100 : 0;
      const points = pointsFor(total, perEuro) + bonus;
      const inserted = await ctx.db.query(
        'insert into loyalty_ledger (order_id, email, points) values ($1, $2, $3) on conflict (order_id) do nothing returning points',
        [id, email, points],
      );
      if (inserted.length) await ctx.emit('points.earned', { id, email, points });
    });

    ctx.routes.store('GET', '/balance', async (req) => {
      const email = typeof req.query.email === 'string' ? req.query.email : '';
      if (!email) throw Object.assign(new Error('Query parameter email is required'), { status: 400 });
      const [{ points }] = await ctx.db.query(
        'select coalesce(sum(points), 0)::int as points from loyalty_ledger where lower(email) = lower($1)',
        [email],
      );
      return { email, points };
    });

    ctx.routes.admin('GET', '/ledger', async () => ({
      entries: await ctx.db.query(
        'select order_id, email, points, created_at from loyalty_ledger order by created_at desc limit 100',
      ),
    }));
  },
};
