import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message as the SMTP server received it: the envelope and the parsed mail. */
export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  mail: ParsedMail;
}

export interface TestSmtpServer {
  port: number;
  received: ReceivedMail[];
  /** When true, every message is refused with 451 (a mail server in trouble). */
  refuse: boolean;
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 (the smtp-server library), in the test process: it accepts any
 * login, keeps every message parsed (mailparser) with its envelope, or refuses them all.
 */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const state: TestSmtpServer = { port: 0, received: [], refuse: false, close: async () => {} };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (_auth, _session, done) => done(null, { user: 'test' }),
    onData(stream, session, done) {
      if (state.refuse) {
        stream.resume();
        stream.on('end', () => done(Object.assign(new Error('Try again later'), { responseCode: 451 })));
        return;
      }
      simpleParser(stream)
        .then((mail) => {
          state.received.push({
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
            },
            mail,
          });
          done();
        })
        .catch(done);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.server.address() as AddressInfo).port;
  state.close = () => new Promise((resolve) => server.close(() => resolve()));
  return state;
}
