import Mustache from 'mustache';
import { errors } from '../../platform/http/errors.ts';

/**
 * The shop's message templates (mustache: logic-less, HTML-escaped in the HTML part). The shop
 * renders them and hands the result to the installed provider, so every provider sends the same
 * words. Each has sample data, used by the admin's preview.
 */
export interface TemplateDef {
  name: string;
  channel: 'email';
  description: string;
  subject: string;
  text: string;
  html: string;
  sample: Record<string, unknown>;
}

const ITEMS_TEXT = '{{#items}}- {{quantity}} × {{title}}: {{total}}\n{{/items}}';
const ITEMS_HTML = '<ul>{{#items}}<li>{{quantity}} × {{title}}: {{total}}</li>{{/items}}</ul>';
const SAMPLE_ORDER = {
  order_id: 'order_01SAMPLE',
  display_id: 1042,
  email: 'ada@example.com',
  first_name: 'Ada',
  items: [
    { title: 'Linen shirt', quantity: 2, unit_price: '€25.00', total: '€50.00' },
    { title: 'Wool socks', quantity: 1, unit_price: '€9.90', total: '€9.90' },
  ],
  item_total: '€59.90',
  shipping_total: '€4.90',
  total: '€64.80',
  total_amount: 6480,
  currency_code: 'eur',
};

const defs: TemplateDef[] = [
  {
    name: 'order.placed',
    channel: 'email',
    description: 'Order confirmation, sent when an order is placed',
    subject: 'Your order #{{display_id}} is confirmed',
    text: `Hello{{#first_name}} {{first_name}}{{/first_name}},\n\nthank you for your order #{{display_id}}.\n\n${ITEMS_TEXT}\nShipping: {{shipping_total}}\nTotal: {{total}}\n`,
    html: `<p>Hello{{#first_name}} {{first_name}}{{/first_name}},</p><p>thank you for your order #{{display_id}}.</p>${ITEMS_HTML}<p>Shipping: {{shipping_total}}<br>Total: <strong>{{total}}</strong></p>`,
    sample: SAMPLE_ORDER,
  },
  {
    name: 'order.shipped',
    channel: 'email',
    description: 'Shipping notice with tracking, sent when a fulfillment ships (unless no_notification)',
    subject: 'Your order #{{display_id}} is on its way',
    text: `Hello{{#first_name}} {{first_name}}{{/first_name}},\n\nyour order #{{display_id}} has shipped.\n{{#tracking}}Tracking: {{number}}{{#url}} {{url}}{{/url}}\n{{/tracking}}`,
    html: `<p>Hello{{#first_name}} {{first_name}}{{/first_name}},</p><p>your order #{{display_id}} has shipped.</p>{{#tracking}}<p>Tracking: {{#url}}<a href="{{url}}">{{number}}</a>{{/url}}{{^url}}{{number}}{{/url}}</p>{{/tracking}}`,
    sample: { ...SAMPLE_ORDER, tracking: [{ number: 'JJD000390007', url: 'https://track.example/JJD000390007' }] },
  },
  {
    name: 'order.refunded',
    channel: 'email',
    description: 'Refund notice, sent when money goes back to the customer',
    subject: 'We refunded {{refund_amount}} for order #{{display_id}}',
    text: 'Hello{{#first_name}} {{first_name}}{{/first_name}},\n\nwe refunded {{refund_amount}} for your order #{{display_id}} ({{refunded_total}} refunded in all).\n',
    html: '<p>Hello{{#first_name}} {{first_name}}{{/first_name}},</p><p>we refunded <strong>{{refund_amount}}</strong> for your order #{{display_id}} ({{refunded_total}} refunded in all).</p>',
    sample: { ...SAMPLE_ORDER, refund_amount: '€9.90', refunded_total: '€9.90' },
  },
  {
    name: 'order.transfer_requested',
    channel: 'email',
    description: 'Asks the address an order was placed with to accept (or decline) moving it to a customer account',
    subject: 'Transfer order #{{display_id}} to an account?',
    text: 'Someone asked to move your order #{{display_id}} to the account {{customer_email}}. If it was you, open this link to accept (or decline) the transfer:\n\n{{transfer_url}}\n\nIf it was not you, ignore this message: nothing changes.\n',
    html: '<p>Someone asked to move your order #{{display_id}} to the account {{customer_email}}. If it was you, open this link to accept (or decline) the transfer:</p><p><a href="{{transfer_url}}">Review the transfer</a></p><p>If it was not you, ignore this message: nothing changes.</p>',
    sample: {
      order_id: 'order_01SAMPLE',
      display_id: 1042,
      customer_email: 'ada@example.com',
      transfer_url: 'http://localhost:8000/order/order_01SAMPLE/transfer/SAMPLE',
    },
  },
  {
    name: 'customer.created',
    channel: 'email',
    description: 'Welcome message, sent when a shopper creates an account',
    subject: 'Welcome{{#first_name}}, {{first_name}}{{/first_name}}',
    text: 'Hello{{#first_name}} {{first_name}}{{/first_name}},\n\nyour account ({{email}}) is ready.\n',
    html: '<p>Hello{{#first_name}} {{first_name}}{{/first_name}},</p><p>your account ({{email}}) is ready.</p>',
    sample: { customer_id: 'cus_01SAMPLE', email: 'ada@example.com', first_name: 'Ada' },
  },
  {
    name: 'auth.password_reset',
    channel: 'email',
    description: 'Password reset link for a customer or an admin user (valid 15 minutes)',
    subject: 'Reset your password',
    text: 'Someone asked to reset the password of {{email}}. Open this link within 15 minutes to choose a new one:\n\n{{reset_url}}\n\nIf it was not you, ignore this message.\n',
    html: '<p>Someone asked to reset the password of {{email}}. Open this link within 15 minutes to choose a new one:</p><p><a href="{{reset_url}}">Reset your password</a></p><p>If it was not you, ignore this message.</p>',
    sample: {
      email: 'ada@example.com',
      actor_type: 'customer',
      reset_url: 'http://localhost:8000/reset-password?token=SAMPLE&email=ada%40example.com',
    },
  },
  {
    name: 'marketplace.vendor_verify',
    channel: 'email',
    description: 'Marketplace role: confirms a vendor sign-up (link valid 48 hours)',
    subject: 'Confirm your vendor account',
    text: 'Hello {{name}},\n\nopen this link within 48 hours to confirm {{email}} and receive your first API token:\n\n{{verify_url}}\n\nIf it was not you, ignore this message.\n',
    html: '<p>Hello {{name}},</p><p>open this link within 48 hours to confirm {{email}} and receive your first API token:</p><p><a href="{{verify_url}}">Confirm your vendor account</a></p><p>If it was not you, ignore this message.</p>',
    sample: {
      name: 'Acme',
      email: 'dev@acme.example',
      verify_url: 'http://market.example/app/vendor/verify?token=SAMPLE',
    },
  },
  {
    name: 'marketplace.vendor_invite',
    channel: 'email',
    description: 'Marketplace role: the operator invites a vendor (link valid 48 hours)',
    subject: 'You are invited to publish on the marketplace',
    text: 'Hello {{name}},\n\nyou are invited to publish plugins. Open this link within 48 hours to accept and receive your first API token:\n\n{{verify_url}}\n',
    html: '<p>Hello {{name}},</p><p>you are invited to publish plugins. Open this link within 48 hours to accept and receive your first API token:</p><p><a href="{{verify_url}}">Accept the invitation</a></p>',
    sample: {
      name: 'Acme',
      email: 'dev@acme.example',
      verify_url: 'http://market.example/app/vendor/verify?token=SAMPLE',
    },
  },
  {
    name: 'team.invite',
    channel: 'email',
    description: 'Invitation to join the shop team, with the role it grants (the link works 7 days)',
    subject: 'You are invited to join the shop team',
    text: 'You have been invited to join the shop team as {{role}}. Open this link within 7 days to choose your password:\n\n{{invite_url}}\n\nIf you did not expect this, ignore this message.\n',
    html: '<p>You have been invited to join the shop team as <strong>{{role}}</strong>. Open this link within 7 days to choose your password:</p><p><a href="{{invite_url}}">Accept the invitation</a></p><p>If you did not expect this, ignore this message.</p>',
    sample: { email: 'ada@example.com', role: 'admin', invite_url: 'http://localhost:9000/app/invite?token=SAMPLE' },
  },
];

export const TEMPLATES: ReadonlyMap<string, TemplateDef> = new Map(defs.map((t) => [t.name, t]));

/** Subject and text are plain text (nothing escaped); the HTML part escapes what HTML needs (links stay readable). */
const plain = { escape: (value: unknown) => String(value) };
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const html = { escape: (value: unknown) => String(value).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]) };

export function renderTemplate(name: string, data: Record<string, unknown>) {
  const t = TEMPLATES.get(name);
  if (!t) throw errors.notFound('notification_template_not_found', { name });
  return {
    subject: Mustache.render(t.subject, data, {}, plain),
    text: Mustache.render(t.text, data, {}, plain),
    html: Mustache.render(t.html, data, {}, html),
  };
}
