import { Type } from 'typebox';
import { deletedEnvelope, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import {
  changeCampaignPromotions,
  createCampaign,
  deleteCampaign,
  getCampaign,
  listCampaigns,
  updateCampaign,
} from './campaigns.ts';
import {
  Campaign,
  CampaignPromotionsBody,
  CampaignQuery,
  CreateCampaignBody,
  CreatePromotionBody,
  LabeledRule,
  Promotion,
  PromotionQuery,
  PromotionRulesQuery,
  PromotionRuleTypeParams,
  RuleAttributeOption,
  RuleAttributeQuery,
  RuleBatchBody,
  RuleTypeParams,
  RuleValueParams,
  RuleValueQuery,
  UpdateCampaignBody,
  UpdatePromotionBody,
  ValueOption,
} from './schema.ts';
import { labeledRules, ruleAttributes, ruleValues } from './rule-options.ts';
import {
  batchRules,
  createPromotion,
  deletePromotion,
  getPromotion,
  listPromotions,
  updatePromotion,
} from './service.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const FieldsQuery = Type.Object({ fields: Type.Optional(Type.String({ maxLength: 2000 })) });
const promotionEnvelope = ok(Type.Object({ promotion: Promotion }));
const campaignEnvelope = ok(Type.Object({ campaign: Campaign }));
const RULE_KINDS = { rules: 'rules', 'target-rules': 'target_rules', 'buy-rules': 'buy_rules' } as const;

/** `/admin/promotions` and `/admin/campaigns`, in Medusa's shapes. */
export const adminPromotionRoutes: RouteModule = adminResource('promotions', (app) => {
  const tags = ['promotions'];
  app.get(
    '/promotions',
    { schema: { tags, querystring: PromotionQuery, response: ok(listEnvelope('promotions', Promotion)) } },
    async (req) => {
      const page = pageOf(req.query);
      return { ...(await listPromotions(req.ctx, req.query, page)), ...page };
    },
  );
  app.get(
    '/promotions/:id',
    { schema: { tags, params: IdParams, querystring: FieldsQuery, response: promotionEnvelope } },
    async (req) => ({ promotion: await getPromotion(req.ctx, req.params.id) }),
  );
  app.post(
    '/promotions',
    { schema: { tags, querystring: FieldsQuery, body: CreatePromotionBody, response: promotionEnvelope } },
    async (req) => ({ promotion: await createPromotion(req.ctx, req.body) }),
  );
  app.post(
    '/promotions/:id',
    {
      schema: {
        tags,
        params: IdParams,
        querystring: FieldsQuery,
        body: UpdatePromotionBody,
        response: promotionEnvelope,
      },
    },
    async (req) => ({ promotion: await updatePromotion(req.ctx, req.params.id, req.body) }),
  );
  app.delete(
    '/promotions/:id',
    { schema: { tags, params: IdParams, response: ok(deletedEnvelope('promotion')) } },
    async (req) => deletePromotion(req.ctx, req.params.id),
  );
  app.post(
    '/promotions/:id/:kind/batch',
    {
      schema: {
        tags,
        params: Type.Object({
          id: IdParams.properties.id,
          kind: Type.Union([Type.Literal('rules'), Type.Literal('target-rules'), Type.Literal('buy-rules')]),
        }),
        body: RuleBatchBody,
      },
    },
    async (req) => batchRules(req.ctx, req.params.id, RULE_KINDS[req.params.kind], req.body),
  );

  // The rule editor of Medusa's admin: attributes, their values, a promotion's rules labeled.
  app.get(
    '/promotions/rule-attribute-options/:rule_type',
    {
      schema: {
        tags,
        summary: 'Attributes a rule of this kind may test, with operators and how its values are picked',
        params: RuleTypeParams,
        querystring: RuleAttributeQuery,
        response: ok(Type.Object({ attributes: Type.Array(RuleAttributeOption) })),
      },
    },
    async (req) => ({ attributes: ruleAttributes(req.params.rule_type, req.query) }),
  );
  app.get(
    '/promotions/rule-value-options/:rule_type/:rule_attribute_id',
    {
      schema: {
        tags,
        summary: 'Values a rule attribute may take, as { label, value } (q searches, value picks)',
        params: RuleValueParams,
        querystring: RuleValueQuery,
        response: ok(Type.Object({ values: Type.Array(ValueOption) })),
      },
    },
    async (req) => {
      const { q, value, ...kind } = req.query;
      const page = pageOf(req.query, 100);
      const values = value === undefined ? undefined : [value].flat();
      return {
        values: await ruleValues(req.ctx, req.params.rule_type, req.params.rule_attribute_id, kind, {
          q,
          values,
          ...page,
        }),
      };
    },
  );
  app.get(
    '/promotions/:id/:rule_type',
    {
      schema: {
        tags,
        summary: "A promotion's rules of one kind as the rule editor shows them, values labeled",
        params: PromotionRuleTypeParams,
        querystring: PromotionRulesQuery,
        response: ok(Type.Object({ rules: Type.Array(LabeledRule) })),
      },
    },
    async (req) => {
      // The SDK's listRules(null, …), for a promotion being created, sends the id "null".
      const id = req.params.id === 'null' ? null : req.params.id;
      return { rules: await labeledRules(req.ctx, id, req.params.rule_type, req.query) };
    },
  );

  const ctags = ['campaigns'];
  app.get(
    '/campaigns',
    { schema: { tags: ctags, querystring: CampaignQuery, response: ok(listEnvelope('campaigns', Campaign)) } },
    async (req) => {
      const page = pageOf(req.query);
      return { ...(await listCampaigns(req.ctx, req.query, page)), ...page };
    },
  );
  app.get(
    '/campaigns/:id',
    { schema: { tags: ctags, params: IdParams, querystring: FieldsQuery, response: campaignEnvelope } },
    async (req) => ({ campaign: await getCampaign(req.ctx, req.params.id) }),
  );
  app.post(
    '/campaigns',
    { schema: { tags: ctags, querystring: FieldsQuery, body: CreateCampaignBody, response: campaignEnvelope } },
    async (req) => ({ campaign: await createCampaign(req.ctx, req.body) }),
  );
  app.post(
    '/campaigns/:id',
    {
      schema: {
        tags: ctags,
        params: IdParams,
        querystring: FieldsQuery,
        body: UpdateCampaignBody,
        response: campaignEnvelope,
      },
    },
    async (req) => ({ campaign: await updateCampaign(req.ctx, req.params.id, req.body) }),
  );
  app.delete(
    '/campaigns/:id',
    { schema: { tags: ctags, params: IdParams, response: ok(deletedEnvelope('campaign')) } },
    async (req) => deleteCampaign(req.ctx, req.params.id),
  );
  app.post(
    '/campaigns/:id/promotions',
    { schema: { tags: ctags, params: IdParams, body: CampaignPromotionsBody, response: campaignEnvelope } },
    async (req) => ({ campaign: await changeCampaignPromotions(req.ctx, req.params.id, req.body) }),
  );
});
