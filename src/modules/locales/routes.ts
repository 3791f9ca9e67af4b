import { Type } from 'typebox';
import { errors } from '../../platform/http/errors.ts';
import { pageOf, pageQuery } from '../../platform/http/pagination.ts';
import { adminResource } from '../../platform/http/permissions.ts';
import { ok } from '../../platform/http/responses.ts';
import type { RouteModule } from '../../platform/http/types.ts';

const Locale = Type.Object({ code: Type.String(), name: Type.String() });

/** "fr-FR" → "French (France)"; a code Intl cannot name is shown as itself. */
export function localeName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** `GET /store/locales`: the languages the shop offers (STORE_LOCALES), in Medusa's shape. */
export const storeLocaleRoutes: RouteModule = (app, deps) => {
  // Named on the first request: loading Intl's display names would cost every start ~20 ms.
  let locales: { code: string; name: string }[] | undefined;
  app.get(
    '/locales',
    {
      schema: {
        tags: ['locales'],
        summary: 'Languages the shop offers (STORE_LOCALES)',
        response: ok(Type.Object({ locales: Type.Array(Locale) })),
      },
    },
    async () => {
      locales ??= deps.config.storeLocales.map((code) => ({ code, name: localeName(code) }));
      return { locales };
    },
  );
};

const Code = Type.String({ minLength: 1, maxLength: 35 });
const LocaleListQuery = Type.Object({
  ...pageQuery(50),
  q: Type.Optional(Type.String({ maxLength: 200 })),
  code: Type.Optional(Type.Array(Code, { maxItems: 100 })),
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
  order: Type.Optional(Type.String({ maxLength: 100 })),
});

/**
 * `GET /admin/locales[/{code}]` (Medusa's admin.locale): the same languages as the store's list,
 * paged and filtered as Medusa's are (`q` matches code or name). The settings of the store
 * (`stores`) decide which of them a storefront offers; here that is STORE_LOCALES.
 */
export const adminLocaleRoutes: RouteModule = adminResource('settings', (app, deps) => {
  let locales: { code: string; name: string }[] | undefined;
  const all = () => (locales ??= deps.config.storeLocales.map((code) => ({ code, name: localeName(code) })));
  const tags = ['locales'];
  app.get(
    '/locales',
    {
      schema: {
        tags,
        summary: 'Languages the shop offers (STORE_LOCALES)',
        querystring: LocaleListQuery,
        response: ok(
          Type.Object({
            locales: Type.Array(Locale),
            count: Type.Integer(),
            limit: Type.Integer(),
            offset: Type.Integer(),
          }),
        ),
      },
    },
    async (req) => {
      const page = pageOf(req.query, 50);
      const q = req.query.q?.toLowerCase();
      const found = all().filter(
        (l) =>
          (!req.query.code || req.query.code.includes(l.code)) &&
          (!q || l.code.toLowerCase().includes(q) || l.name.toLowerCase().includes(q)),
      );
      return { locales: found.slice(page.offset, page.offset + page.limit), count: found.length, ...page };
    },
  );
  app.get(
    '/locales/:code',
    {
      schema: {
        tags,
        summary: 'One of the languages the shop offers',
        params: Type.Object({ code: Code }),
        querystring: Type.Object({ fields: Type.Optional(Type.String({ maxLength: 2000 })) }),
        response: ok(Type.Object({ locale: Locale })),
      },
    },
    async (req) => {
      const locale = all().find((l) => l.code.toLowerCase() === req.params.code.toLowerCase());
      if (!locale) throw errors.notFound('locale_not_found', { code: req.params.code });
      return { locale };
    },
  );
});
