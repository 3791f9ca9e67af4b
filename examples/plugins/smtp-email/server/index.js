// Server entry of the SMTP notification provider. `emporium plugin pack` bundles nodemailer into it.
import nodemailer from 'nodemailer';

function transportFor(config) {
  return nodemailer.createTransport({
    host: String(config.host ?? ''),
    port: Number(config.port ?? 587),
    secure: config.secure === true,
    ...(config.username ? { auth: { user: String(config.username), pass: String(config.password ?? '') } } : {}),
    // Fail fast: the shop retries a message that did not go out (1 m, 5 m, 30 m, 2 h, 12 h).
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
}

let transport;
let from;

/** @type {import('@emporium/plugin-sdk').Plugin} */
export default {
  register(ctx) {
    transport = transportFor(ctx.config);
    from = String(ctx.config.from ?? '');
    ctx.notifications.register({
      id: 'smtp',
      name: 'SMTP',
      channels: ['email'],
      async send({ id, to, template, content }) {
        const info = await transport.sendMail({
          from,
          to,
          subject: content.subject,
          text: content.text,
          ...(content.html ? { html: content.html } : {}),
          // The shop's delivery id, the same on every retry: a duplicate can be told apart downstream.
          messageId: `<${id}@emporium.invalid>`,
          headers: { 'X-Emporium-Template': template, 'X-Emporium-Delivery-Id': id },
        });
        return { id: info.messageId };
      },
    });
  },
  onConfigure(config) {
    transport?.close();
    transport = transportFor(config);
    from = String(config.from ?? '');
  },
  unload() {
    transport?.close();
  },
};
