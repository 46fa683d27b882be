// JSON from a peer (a worker's pipe, a child's stdout) that is validated next, by a zod schema.

/** The parsed value, or undefined for text that is not JSON: the schema then rejects it like any other bad value. */
export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
