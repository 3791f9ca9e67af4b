import { deleteByIdRoute } from '../../platform/http/delete-route.ts';
import { Type } from 'typebox';
import { listEnvelope, pageOf, pageQuery } from '../../platform/http/pagination.ts';
import { adminResource, PUBLIC } from '../../platform/http/permissions.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { User } from '../auth/schema.ts';
import {
  acceptInvite,
  createInvite,
  deleteInvite,
  getInvite,
  type InviteDeps,
  listInvites,
  resendInvite,
} from './invites-service.ts';
import { AcceptInviteBody, AcceptInviteQuery, CreateInviteBody, Invite, InviteListQuery } from './schema.ts';

const tags = ['invites'];
const InviteEnvelope = Type.Object({ invite: Invite });

/**
 * Medusa's `/admin/invites`: an invite mails a link to `/app/invite?token=…`; accepting it with a
 * password creates the user with the invite's role. Without an email provider the token is in
 * the answer, for the inviting admin to pass on.
 */
export const adminInviteRoutes: RouteModule = adminResource('team', (app, deps) => {
  const inviteDeps = (): InviteDeps => ({
    providers: app.providers,
    encryptionKey: deps.config.encryptionKey,
    publicUrl: deps.config.publicUrl,
  });

  app.get(
    '/invites',
    {
      schema: {
        tags,
        summary: 'Invites, newest first',
        querystring: Type.Object({ ...pageQuery(50), ...InviteListQuery.properties }),
        response: ok(listEnvelope('invites', Invite)),
      },
    },
    async (req) => {
      const page = pageOf(req.query, 50);
      return { ...(await listInvites(req.ctx, { email: req.query.email }, page)), ...page };
    },
  );

  app.post(
    '/invites',
    {
      schema: {
        tags,
        summary: 'Invite someone by email with a role (default viewer; only a role you hold yourself)',
        body: CreateInviteBody,
        response: ok(InviteEnvelope),
      },
    },
    async (req) => ({ invite: await createInvite(req.ctx, inviteDeps(), req.actor!, req.body) }),
  );

  app.post(
    '/invites/accept',
    {
      schema: {
        tags,
        summary: 'Accept an invite with its token and a password: creates the user (no sign-in needed)',
        querystring: AcceptInviteQuery,
        body: AcceptInviteBody,
        response: ok(Type.Object({ user: User })),
      },
      config: { permission: PUBLIC },
    },
    async (req) => ({ user: await acceptInvite(req.ctx, req.query.token, req.body) }),
  );

  app.get(
    '/invites/:id',
    { schema: { tags, summary: 'An invite', params: IdParams, response: ok(InviteEnvelope) } },
    async (req) => ({ invite: await getInvite(req.ctx, req.params.id) }),
  );

  app.post(
    '/invites/:id/resend',
    {
      schema: {
        tags,
        summary: 'Mail the invite again with a new token (the old link stops working)',
        params: IdParams,
        response: ok(InviteEnvelope),
      },
    },
    async (req) => ({ invite: await resendInvite(req.ctx, inviteDeps(), req.params.id) }),
  );

  deleteByIdRoute(app, '/invites/:id', {
    tags,
    summary: 'Withdraw an invite',
    object: 'invite',
    remove: (req) => deleteInvite(req.ctx, req.params.id),
  });
});
