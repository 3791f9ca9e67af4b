// The "bare Fastify" reference of `npm run bench`: one route answering a constant body (the file
// BODY_FILE, read once) as JSON, on PORT, with the same Fastify as the server and no logger. What
// Emporium's store list reaches as a share of this, measured in the same run, is the figure.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const body = readFileSync(process.env.BODY_FILE);
const app = Fastify({ logger: false });
app.get('/store/products', (_req, reply) => reply.type('application/json; charset=utf-8').send(body));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
