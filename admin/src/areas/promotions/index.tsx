import { Link, Route, Routes, useNavigate, useParams } from 'react-router';
import { api } from '../../lib/api.ts';
import { dateTime } from '../../lib/format.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { useApi, useListQuery, useUrlPage } from '../../lib/api-hooks.ts';
import { SearchAndStatus } from '../../components/form-pieces.tsx';

import { Badge, Card, ConfirmButton, ErrorNote, Loading, PageHeader } from '../../components/ui.tsx';
import { useToastWrite } from '../../lib/toast-write.ts';
import { ListPage } from '../../components/list-page.tsx';
import { WriteLink } from '../../components/page-links.tsx';
import { PagedTable } from '../../components/query-table.tsx';
import type { Item, Ok } from '../../api/types.ts';
import { budgetText } from './budget.ts';
import { CampaignsCard } from './campaigns.tsx';
import { draftOfPromotion } from './promotion-draft.ts';
import { PromotionForm } from './promotion-form.tsx';
import { useRuleLabels } from './rule-lists.ts';
import { allRulesOf, promotionText, rulesText, valueText, type Labels } from './words.ts';

/** Promotions: codes and automatic discounts, and the campaigns that bound them (see docs/pricing.md). */

type Promotion = Item<Ok<'/admin/promotions'>['promotions']>;

const LIMIT = 50;
const STATUS_BADGE: Record<string, string> = { active: 'active', draft: 'draft', inactive: 'disabled' };

function StatusSelect({ p }: { p: Promotion }) {
  const canWrite = useCanWrite();
  const save = useToastWrite(
    (status: string) => api(`/admin/promotions/${p.id}`, { method: 'POST', body: { status } }),
    ['promotions'],
    () => `${p.code} saved`,
  );
  if (!canWrite) return <Badge value={STATUS_BADGE[p.status]}>{p.status}</Badge>;
  return (
    <select
      aria-label={`Status of ${p.code}`}
      value={p.status}
      disabled={save.isPending}
      onChange={(e) => save.mutate(e.target.value)}
    >
      <option value="draft">Draft</option>
      <option value="active">Active</option>
      <option value="inactive">Inactive</option>
    </select>
  );
}

function DeletePromotion({ p }: { p: Promotion }) {
  const remove = useToastWrite(
    () => api(`/admin/promotions/${p.id}`, { method: 'DELETE' }),
    ['promotions'],
    () => `${p.code} deleted`,
  );
  return (
    <ConfirmButton
      label="Delete"
      title={`Delete ${p.code}?`}
      body="Carts that carry it lose it at their next update; placed orders keep their discounts."
      danger
      onConfirm={() => remove.mutate()}
    />
  );
}

/** The list's value column: the method in words; a buy X get Y says what is bought and given. */
function listValue(p: Promotion, labels: Labels): string {
  if (p.type !== 'buyget') return valueText(p.application_method);
  return promotionText({ ...p, rules: [] }, labels).replace(/\.$/, '');
}

function PromotionList() {
  const { q, offset, page, params } = useUrlPage();
  const status = params.get('status') ?? '';
  const canWrite = useCanWrite();
  const list = useListQuery<Ok<'/admin/promotions'>>(['promotions', { q, status, offset }], '/admin/promotions', {
    q: q || undefined,
    status: status || undefined,
    limit: LIMIT,
    offset,
  });
  const labels = useRuleLabels(list.data?.promotions.flatMap(allRulesOf) ?? []);
  return (
    <>
      <ListPage
        title="Promotions"
        actions={<WriteLink to="/promotions/new">Create promotion</WriteLink>}
        filters={<SearchAndStatus statuses={['active', 'draft', 'inactive']} />}
      >
        <PagedTable
          list={list}
          rows={(d) => d.promotions}
          empty="No promotions yet."
          head={
            <>
              <th>Code</th>
              <th>Type</th>
              <th>Method</th>
              <th>Value</th>
              <th>When</th>
              <th>Campaign</th>
              <th>Status</th>
              {canWrite && <th aria-label="Actions" />}
            </>
          }
          row={(p) => (
            <tr key={p.id}>
              <td>
                <Link to={`/promotions/${p.id}`}>
                  <code>{p.code}</code>
                </Link>
              </td>
              <td>{p.type === 'buyget' ? 'Buy X get Y' : 'Standard'}</td>
              <td>{p.is_automatic ? 'Automatic' : 'Code'}</td>
              <td>{listValue(p, labels)}</td>
              <td>{p.rules.length ? rulesText(p.rules, labels, p.application_method.currency_code) : 'Always'}</td>
              <td>{p.campaign?.name ?? '—'}</td>
              <td>
                <StatusSelect p={p} />
              </td>
              {canWrite && (
                <td>
                  <DeletePromotion p={p} />
                </td>
              )}
            </tr>
          )}
          offset={offset}
          limit={LIMIT}
          onPage={page}
        />
      </ListPage>
      <CampaignsCard />
    </>
  );
}

function NewPromotion() {
  const navigate = useNavigate();
  return (
    <>
      <PageHeader back={<Link to="/promotions">← Promotions</Link>} title="New promotion" />
      <Card>
        <PromotionForm onSaved={() => navigate('/promotions')} />
      </Card>
    </>
  );
}

/** One promotion: in words, its campaign's budget used, and the same form as a new one to edit it. */
function PromotionPage() {
  const { id = '' } = useParams();
  const canWrite = useCanWrite();
  const navigate = useNavigate();
  const found = useApi<Ok<'/admin/promotions/{id}'>>(['promotions', id], `/admin/promotions/${id}`);
  const labels = useRuleLabels(found.data ? allRulesOf(found.data.promotion) : []);
  if (found.isPending) return <Loading />;
  if (found.isError) return <ErrorNote error={found.error} />;
  const p = found.data.promotion;
  return (
    <>
      <PageHeader
        back={<Link to="/promotions">← Promotions</Link>}
        title={
          <>
            <code>{p.code}</code> <Badge value={STATUS_BADGE[p.status]}>{p.status}</Badge>
          </>
        }
      />
      <Card title="In words">
        <p>{promotionText(p, labels)}</p>
        <p className="muted">
          {p.is_automatic
            ? 'Applies by itself to every cart that qualifies.'
            : 'Applies when a shopper enters the code.'}{' '}
          {p.campaign
            ? `Campaign ${p.campaign.name}: ${budgetText(p.campaign)}${
                p.campaign.ends_at ? `, until ${dateTime(p.campaign.ends_at)}` : ''
              }.`
            : 'No campaign: no budget, no dates.'}
        </p>
      </Card>
      {canWrite && (
        <Card title="Edit">
          {/* Keyed by the saved version, so a save refills the form with what the server kept. */}
          <PromotionForm
            key={p.updated_at}
            id={p.id}
            initial={draftOfPromotion(p)}
            onSaved={() => navigate(`/promotions/${p.id}`)}
          />
        </Card>
      )}
    </>
  );
}

export default function PromotionsArea() {
  return (
    <Routes>
      <Route index element={<PromotionList />} />
      <Route path="new" element={<NewPromotion />} />
      <Route path=":id" element={<PromotionPage />} />
    </Routes>
  );
}
