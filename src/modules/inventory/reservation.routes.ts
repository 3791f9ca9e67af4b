import { deletedEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import {
  CreateReservationBody,
  ReservationEnvelope,
  ReservationList,
  ReservationQuery,
  UpdateReservationBody,
} from './reservation-schema.ts';
import {
  createReservation,
  deleteReservation,
  getReservation,
  listReservations,
  updateReservation,
} from './reservations.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const tags = ['reservations'];

export const reservationRoutes: RouteModule = adminResource('inventory', (app) => {
  app.get(
    '/reservations',
    { schema: { tags, summary: 'List reservations', querystring: ReservationQuery, response: ok(ReservationList) } },
    async (req) => {
      const page = pageOf(req.query, 20);
      const { location_id, inventory_item_id, line_item_id } = req.query;
      return { ...(await listReservations(req.ctx, { location_id, inventory_item_id, line_item_id }, page)), ...page };
    },
  );

  app.post(
    '/reservations',
    {
      schema: {
        tags,
        summary: 'Hold stock of an item at a location',
        body: CreateReservationBody,
        response: ok(ReservationEnvelope),
      },
    },
    async (req) => ({ reservation: await createReservation(req.ctx, req.body) }),
  );

  app.get(
    '/reservations/:id',
    { schema: { tags, summary: 'Get a reservation', params: IdParams, response: ok(ReservationEnvelope) } },
    async (req) => ({ reservation: await getReservation(req.ctx, req.params.id) }),
  );

  app.post(
    '/reservations/:id',
    {
      schema: {
        tags,
        summary: "Change a reservation's quantity or location",
        params: IdParams,
        body: UpdateReservationBody,
        response: ok(ReservationEnvelope),
      },
    },
    async (req) => ({ reservation: await updateReservation(req.ctx, req.params.id, req.body) }),
  );

  app.delete(
    '/reservations/:id',
    {
      schema: {
        tags,
        summary: 'Release a reservation',
        params: IdParams,
        response: ok(deletedEnvelope('reservation')),
      },
    },
    async (req) => deleteReservation(req.ctx, req.params.id),
  );
});
