import { deletedEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { App, RouteModule } from '../../platform/http/types.ts';
import { CreateLabelBody, LabelQuery, labelEnvelope, labelList, UpdateLabelBody } from './schema.ts';
import { createLabel, deleteLabel, getLabel, listLabels, TAG, TYPE, updateLabel, type LabelKind } from './service.ts';
import { adminResource } from '../../platform/http/permissions.ts';

interface Surface {
  kind: LabelKind;
  url: string;
  /** Envelope key and list key: product_type / product_types. */
  one: string;
  many: 'product_types' | 'product_tags';
  object: string;
}

const SURFACES: Surface[] = [
  { kind: TYPE, url: '/product-types', one: 'product_type', many: 'product_types', object: 'product_type' },
  { kind: TAG, url: '/product-tags', one: 'product_tag', many: 'product_tags', object: 'product_tag' },
];

function reads(app: App, s: Surface, tags: string[]) {
  app.get(
    s.url,
    {
      schema: {
        tags,
        summary: `List ${s.kind.noun.toLowerCase()}s`,
        querystring: LabelQuery,
        response: ok(labelList(s.many)),
      },
    },
    async (req) => {
      const page = pageOf(req.query, 20);
      const { rows, count } = await listLabels(req.ctx, s.kind, req.query, page);
      return s.many === 'product_types'
        ? { product_types: rows, count, ...page }
        : { product_tags: rows, count, ...page };
    },
  );
  app.get(
    `${s.url}/:id`,
    {
      schema: {
        tags,
        summary: `Get a ${s.kind.noun.toLowerCase()}`,
        params: IdParams,
        response: ok(labelEnvelope(s.one)),
      },
    },
    async (req) => ({ [s.one]: await getLabel(req.ctx, s.kind, req.params.id) }),
  );
}

export const adminLabelRoutes: RouteModule = adminResource('products', (app) => {
  for (const s of SURFACES) {
    const tags = [s.url.slice(1)];
    reads(app, s, tags);
    app.post(
      s.url,
      {
        schema: {
          tags,
          summary: `Create a ${s.kind.noun.toLowerCase()}`,
          body: CreateLabelBody,
          response: ok(labelEnvelope(s.one)),
        },
      },
      async (req) => ({ [s.one]: await createLabel(req.ctx, s.kind, req.body) }),
    );
    app.post(
      `${s.url}/:id`,
      {
        schema: {
          tags,
          summary: `Update a ${s.kind.noun.toLowerCase()} (its products get product.updated)`,
          params: IdParams,
          body: UpdateLabelBody,
          response: ok(labelEnvelope(s.one)),
        },
      },
      async (req) => ({ [s.one]: await updateLabel(req.ctx, s.kind, req.params.id, req.body) }),
    );
    app.delete(
      `${s.url}/:id`,
      {
        schema: {
          tags,
          summary: `Delete a ${s.kind.noun.toLowerCase()} (soft); its products lose it`,
          params: IdParams,
          response: ok(deletedEnvelope(s.object)),
        },
      },
      async (req) => {
        await deleteLabel(req.ctx, s.kind, req.params.id);
        return { id: req.params.id, object: s.object, deleted: true as const };
      },
    );
  }
});

export const storeLabelRoutes: RouteModule = (app) => {
  for (const s of SURFACES) reads(app, s, [`store ${s.url.slice(1)}`]);
};
