import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

/**
 * Two validators: bodies are taken as sent (`5` is not the string `"5"`, unknown keys are errors),
 * while querystring, params and headers arrive as text and are coerced to the declared types.
 */
function makeAjv(coerce: boolean): Ajv {
  const opts: Options = {
    removeAdditional: false,
    useDefaults: true,
    allErrors: true,
    coerceTypes: coerce ? 'array' : false,
    strict: false,
  };
  const ajv = new Ajv(opts);
  addFormats.default(ajv);
  return ajv;
}

const strict = makeAjv(false);
const coercing = makeAjv(true);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const validate = (httpPart === 'body' ? strict : coercing).compile(schema as object);
  return (data: unknown) =>
    validate(data)
      ? { value: data }
      : { error: Object.assign(new Error('validation'), { validation: validate.errors }) };
};
