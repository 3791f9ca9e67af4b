/** A wrong command line: printed with the usage text, exit code 2. */
export class UsageError extends Error {}
