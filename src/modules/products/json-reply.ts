/**
 * Sends JSON text that PostgreSQL already rendered (or its UTF-8 bytes, from the store cache).
 * Fastify passes a string with a JSON content type, or a Buffer, through without serializing it
 * again, which is the point: the catalog is never parsed or re-stringified in Node.
 */
export function sendJsonText(
  reply: { type(contentType: string): { send(payload: never): unknown } },
  body: string | Buffer,
): void {
  // A route's send is typed by its response schema; this text is that JSON already, which Fastify sends as is.
  reply.type('application/json; charset=utf-8').send(body as never);
}
