import { Type } from 'typebox';
import { ok } from '../../platform/http/responses.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { getDashboard } from './service.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const Query = Type.Object({
  utc_offset_minutes: Type.Optional(
    Type.Integer({
      minimum: -840,
      maximum: 840,
      default: 0,
      description: "the operator's offset from UTC (e.g. 60 for CET), so days end at their midnight",
    }),
  ),
});

const Dashboard = Type.Object({
  days: Type.Integer(),
  sales: Type.Array(
    Type.Object({ day: Type.String(), currency_code: Type.String(), orders: Type.Integer(), revenue: Type.Integer() }),
    { description: 'per day and currency, canceled orders left out' },
  ),
  low_stock: Type.Array(
    Type.Object({
      variant_id: Type.String(),
      variant_title: Type.String(),
      sku: Type.Union([Type.String(), Type.Null()]),
      product_id: Type.String(),
      product_title: Type.String(),
      inventory_quantity: Type.Integer(),
    }),
  ),
  low_stock_threshold: Type.Integer(),
  unread_notifications: Type.Integer(),
});

/** `GET /admin/dashboard`: the admin panel's home in one call (30 days of sales, low stock, unread notifications). */
export const dashboardRoutes: RouteModule = adminResource('dashboard', (app) => {
  app.get(
    '/dashboard',
    {
      schema: {
        tags: ['admin panel'],
        summary: 'Sales of the last 30 days, low-stock variants, unread notifications',
        querystring: Query,
        response: ok(Dashboard),
      },
    },
    async (req) => getDashboard(req.ctx, req.query.utc_offset_minutes ?? 0),
  );
});
