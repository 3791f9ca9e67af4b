/** Turns ajv errors into Medusa's wording: "Invalid request: Field 'title' is required; …". */
interface AjvIssue {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

function fieldName(instancePath: string, extra?: string): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (extra) parts.push(extra);
  return parts.join('.') || '(root)';
}

function describe(issue: AjvIssue): string {
  const p = issue.params;
  switch (issue.keyword) {
    case 'required':
      return `Field '${fieldName(issue.instancePath, String(p.missingProperty))}' is required`;
    case 'additionalProperties':
      return `Unrecognized fields: '${fieldName(issue.instancePath, String(p.additionalProperty))}'`;
    case 'type':
      return `Expected type: '${String(p.type)}' for field '${fieldName(issue.instancePath)}'`;
    case 'enum':
      return `Invalid value for field '${fieldName(issue.instancePath)}': expected one of ${(p.allowedValues as unknown[]).map((v) => `'${v}'`).join(', ')}`;
    default:
      return `Field '${fieldName(issue.instancePath)}' ${issue.message ?? 'is invalid'}`;
  }
}

/** The parts of the `invalid_request` message: where the problem is (nothing for the body) and what. */
export function validationParts(issues: AjvIssue[], context?: string): { where: string; problems: string } {
  const unique = [...new Set(issues.map(describe))].slice(0, 3);
  const where = context && context !== 'body' ? ` (${context === 'querystring' ? 'query' : context})` : '';
  return { where, problems: unique.join('; ') };
}

export function validationMessage(issues: AjvIssue[], context?: string): string {
  const { where, problems } = validationParts(issues, context);
  return `Invalid request${where}: ${problems}`;
}
