import { Type } from 'typebox';
import { pageOf, pageQuery } from '../../platform/http/pagination.ts';
import { errors } from '../../platform/http/errors.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { Variant } from './schema.ts';
import { getStoreVariant, listStoreOptions, listStoreVariants } from './store-compat.ts';
import { customerGroupIds } from '../customer-groups/service.ts';

const tags = ['store products'];
const Id = Type.String({ minLength: 1, maxLength: 200 });
const OneOrMany = Type.Union([Id, Type.Array(Id, { maxItems: 100 })]);
const list = (v: string | string[] | undefined) => (v === undefined ? undefined : [v].flat());
const hints = {
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
  order: Type.Optional(Type.String({ maxLength: 100 })),
};

const VariantQuery = Type.Object({ region_id: Type.Optional(Id), ...hints });
const VariantListQuery = Type.Object({
  ...pageQuery(50),
  id: Type.Optional(OneOrMany),
  product_id: Type.Optional(OneOrMany),
  region_id: Type.Optional(Id),
  ...hints,
});
const OptionListQuery = Type.Object({
  ...pageQuery(50),
  id: Type.Optional(OneOrMany),
  product_id: Type.Optional(OneOrMany),
  ...hints,
});
const StoreOption = Type.Object({
  id: Type.String(),
  title: Type.String(),
  product_id: Type.String(),
  values: Type.Array(Type.Object({ value: Type.String(), option_id: Type.String() })),
});
const Paging = { count: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() };

/** Medusa's side routes of the catalog, so a storefront calling them gets its shapes instead of a 404. */
export const storeCatalogCompatRoutes: RouteModule = (app) => {
  app.get(
    '/product-variants/:id',
    {
      schema: {
        tags,
        summary: 'A variant of a published product (with `region_id`: its calculated price)',
        params: IdParams,
        querystring: VariantQuery,
        response: ok(Type.Object({ variant: Variant })),
      },
    },
    async (req) => {
      const groups = await customerGroupIds(req.ctx, req.query.region_id ? req.customer?.id : undefined);
      return { variant: await getStoreVariant(req.ctx, req.store!, req.params.id, req.query.region_id, groups) };
    },
  );

  app.get(
    '/product-variants',
    {
      schema: {
        tags,
        summary: 'Variants of published products, by id or product_id',
        querystring: VariantListQuery,
        response: ok(Type.Object({ variants: Type.Array(Variant), ...Paging })),
      },
    },
    async (req) => {
      const page = pageOf(req.query, 50);
      const filters = {
        id: list(req.query.id),
        product_id: list(req.query.product_id),
        region_id: req.query.region_id,
      };
      const groups = await customerGroupIds(req.ctx, req.query.region_id ? req.customer?.id : undefined);
      return { ...(await listStoreVariants(req.ctx, req.store!, filters, page, groups)), ...page };
    },
  );

  app.get(
    '/product-options',
    {
      schema: {
        tags,
        summary: 'Options of published products, with their values',
        querystring: OptionListQuery,
        response: ok(Type.Object({ product_options: Type.Array(StoreOption), ...Paging })),
      },
    },
    async (req) => {
      const page = pageOf(req.query, 50);
      const filters = { id: list(req.query.id), product_id: list(req.query.product_id) };
      return { ...(await listStoreOptions(req.ctx, req.store!, filters, page)), ...page };
    },
  );

  app.get(
    '/product-options/:id',
    {
      schema: {
        tags,
        summary: 'An option of a published product',
        params: IdParams,
        querystring: Type.Object(hints),
        response: ok(Type.Object({ product_option: StoreOption })),
      },
    },
    async (req) => {
      const { product_options } = await listStoreOptions(
        req.ctx,
        req.store!,
        { id: [req.params.id] },
        { limit: 1, offset: 0 },
      );
      if (!product_options.length) throw errors.notFound('product_option_not_found', { id: req.params.id });
      return { product_option: product_options[0] };
    },
  );
};
