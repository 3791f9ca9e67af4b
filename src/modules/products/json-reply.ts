/**
 * Sends JSON text that PostgreSQL already rendered. Fastify passes a string with a JSON
 * content type through without serializing it again, which is the point: the catalog is
 * never parsed or re-stringified in Node.
 */
export function sendJsonText(
  reply: { type(contentType: string): { send(payload: never): unknown } },
  body: string,
): void {
  reply.type('application/json; charset=utf-8').send(body as never);
}
