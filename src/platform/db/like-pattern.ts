/** `text` inside a `like` pattern, its `%`, `_` and `\` taken literally. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, '\\$&');

/** `q` as a `like` pattern that matches it anywhere. */
export const containsPattern = (q: string): string => `%${escapeLike(q)}%`;
