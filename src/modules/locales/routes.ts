import { Type } from 'typebox';
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
