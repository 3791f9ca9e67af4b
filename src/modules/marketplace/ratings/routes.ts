import { Type } from 'typebox';
import { ok } from '../../../platform/http/responses.ts';
import { IdParams, Nullable, NullableTimestamp, Timestamp } from '../../../platform/http/schema-types.ts';
import type { App } from '../../../platform/http/types.ts';
import type { FastifyRequest } from 'fastify';
import { adminReviews, assertOwnsItem, hideReview, publicReviews, replyToReview, submitReview } from './ratings.ts';

const ReviewFields = {
  id: Type.String(),
  rating: Type.Integer({ minimum: 1, maximum: 5 }),
  body: Type.String(),
  version: Nullable(Type.String()),
  reply: Nullable(Type.String({ description: "the vendor's answer (once)" })),
  replied_at: NullableTimestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
};
const Review = Type.Object(ReviewFields);
const AdminReview = Type.Object({
  ...ReviewFields,
  hidden_at: NullableTimestamp,
  hidden_reason: Nullable(Type.String()),
});
export const RatingStats = {
  rating_average: Nullable(Type.Number({ description: 'average of the visible ratings, one decimal' })),
  rating_count: Type.Integer(),
  active_installs: Type.Integer({ description: 'distinct shops that downloaded it in the last 90 days' }),
};
const ReviewParams = Type.Object({ id: Type.String({ maxLength: 200 }), review_id: Type.String({ maxLength: 200 }) });
const tags = ['marketplace (ratings)'];

/** A foreign vendor is refused before its body is even read. */
const ownerFirst = async (req: FastifyRequest) => assertOwnsItem(req.ctx, String((req.params as { id?: unknown }).id));

/** Inside /store/marketplace: a shop's review (sent by its admin on the operator's action), and an item's reviews. */
export function registerReviewStoreRoutes(scope: App): void {
  scope.post(
    '/reviews',
    {
      schema: {
        tags,
        summary: 'Rate and review an installed item (one per shop, a second call edits it)',
        body: Type.Object(
          {
            marketplace_id: Type.String({ maxLength: 200 }),
            instance_id: Type.String({ minLength: 1, maxLength: 200 }),
            rating: Type.Integer({ minimum: 1, maximum: 5 }),
            body: Type.Optional(Type.String({ maxLength: 5000 })),
          },
          { additionalProperties: false },
        ),
        response: ok(Type.Object({ review: Review })),
      },
    },
    async (req) => ({ review: await submitReview(req.ctx, req.body) }),
  );
  scope.get(
    '/reviews',
    {
      schema: {
        tags,
        summary: "An item's average, count, active installs and visible reviews",
        querystring: Type.Object({ marketplace_id: Type.String({ maxLength: 200 }) }),
        response: ok(Type.Object({ ...RatingStats, reviews: Type.Array(Review) })),
      },
    },
    async (req) => publicReviews(req.ctx, req.query.marketplace_id),
  );
}

/** Inside /admin/marketplace: the vendor reads and answers once; the operator hides. */
export function registerReviewAdminRoutes(scope: App): void {
  scope.get(
    '/items/:id/reviews',
    {
      config: { vendorScope: 'read' },
      schema: {
        tags,
        summary: 'Reviews of an item, hidden ones included',
        params: IdParams,
        response: ok(Type.Object({ reviews: Type.Array(AdminReview) })),
      },
    },
    async (req) => adminReviews(req.ctx, req.params.id),
  );
  scope.post(
    '/items/:id/reviews/:review_id/reply',
    {
      config: { vendorScope: 'publish' },
      preValidation: ownerFirst,
      schema: {
        tags,
        summary: "The vendor's answer to a review (once)",
        params: ReviewParams,
        body: Type.Object({ body: Type.String({ minLength: 1, maxLength: 5000 }) }, { additionalProperties: false }),
        response: ok(Type.Object({ review: AdminReview })),
      },
    },
    async (req) => replyToReview(req.ctx, req.params.id, req.params.review_id, req.body.body),
  );
  // The operator's alone: no vendorScope.
  scope.post(
    '/items/:id/reviews/:review_id/hide',
    {
      schema: {
        tags,
        summary: 'Hide an abusive review (hidden: false shows it again)',
        params: ReviewParams,
        body: Type.Object(
          { hidden: Type.Optional(Type.Boolean()), reason: Type.Optional(Type.String({ maxLength: 2000 })) },
          { additionalProperties: false },
        ),
        response: ok(Type.Object({ review: AdminReview })),
      },
    },
    async (req) => hideReview(req.ctx, req.params.id, req.params.review_id, req.body.hidden ?? true, req.body.reason),
  );
}
