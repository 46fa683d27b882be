// A zod schema turned once into plain checking closures, for the one stream that carries holders by the
// hundred thousand. zod without eval (a page's CSP forbids it, so zod runs jitless there) walks its
// schema anew for every value; these closures walk it once, when compiled. They accept exactly what
// the schema accepts and return what it returns (unknown keys stripped, absent optional keys left
// absent); a part they do not know (a transform, a refinement, a union) is handed to zod itself, so a
// value is never let through that the schema refuses. A refused value gets no message here: the
// caller asks zod for one, so the reason reads the same on both paths.
import type { z } from 'zod';

/** What a compiled check returns for a value its schema refuses. */
export const REFUSED: unique symbol = Symbol('refused');
export interface CompiledCheck<T> {
  (value: unknown): T | typeof REFUSED;
  /** Where in the schema zod itself checks (`.events[].holder.x`): what these closures do not know. */
  readonly byZod: readonly string[];
}

/** The parts of zod's internal definitions these closures read (zod v4's `schema._zod.def`). */
interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  element?: z.ZodType;
  entries?: Record<string, unknown>;
  values?: unknown[];
}
interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  length?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
}
type Check = (value: unknown) => unknown;

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

export function compileCheck<S extends z.ZodType>(schema: S): CompiledCheck<z.output<S>> {
  const handed: string[] = [];
  const check = compile(schema, '', handed);
  return Object.assign((value: unknown) => check(value) as z.output<S> | typeof REFUSED, { byZod: handed });
}

/** `handed` collects the paths of the parts left to zod. */
function compile(schema: z.ZodType, path: string, handed: string[]): Check {
  const def = defOf(schema);
  const plain = (def.checks ?? []).map((c) => c._zod.def);
  const known = compileKnown(def, plain, (inner, step) => compile(inner, path + step, handed));
  if (known) return known;
  handed.push(path || '(the whole value)');
  return byZod(schema);
}

/** zod itself, for a part these closures do not know. */
function byZod(schema: z.ZodType): Check {
  return (value) => {
    const parsed = schema.safeParse(value);
    return parsed.success ? parsed.data : REFUSED;
  };
}

function compileKnown(def: Def, checks: CheckDef[], inner: (schema: z.ZodType, step: string) => Check): Check | null {
  switch (def.type) {
    case 'string':
      return checks.length === 0 ? (v) => (typeof v === 'string' ? v : REFUSED) : withChecks(checks, (v) => typeof v === 'string', lengthOf);
    case 'number':
      return withChecks(checks, (v) => typeof v === 'number' && Number.isFinite(v), null);
    case 'boolean':
      return checks.length === 0 ? (v) => (typeof v === 'boolean' ? v : REFUSED) : null;
    case 'enum': {
      const allowed = new Set(Object.values(def.entries ?? {}));
      return checks.length === 0 ? (v) => (allowed.has(v) ? v : REFUSED) : null;
    }
    case 'literal': {
      const allowed = new Set(def.values ?? []);
      return checks.length === 0 ? (v) => (allowed.has(v) ? v : REFUSED) : null;
    }
    case 'nullable': {
      const check = inner(def.innerType!, '');
      return checks.length === 0 ? (v) => (v === null ? null : check(v)) : null;
    }
    case 'optional': {
      const check = inner(def.innerType!, '');
      return checks.length === 0 ? (v) => (v === undefined ? undefined : check(v)) : null;
    }
    case 'array':
      return compileArray(inner(def.element!, '[]'), checks);
    case 'object':
      return checks.length === 0 ? compileObject(def, inner) : null;
    default:
      return null;
  }
}

const lengthOf = (v: unknown) => (v as string | unknown[]).length;

/** A type test plus zod's length and number checks; null when one of the checks is not one of those. */
function withChecks(checks: CheckDef[], isType: (v: unknown) => boolean, length: ((v: unknown) => number) | null): Check | null {
  const tests: ((v: unknown) => boolean)[] = [];
  for (const c of checks) {
    const test = checkTest(c, length);
    if (!test) return null;
    tests.push(test);
  }
  return (v) => {
    if (!isType(v)) return REFUSED;
    for (let i = 0; i < tests.length; i++) if (!tests[i]!(v)) return REFUSED;
    return v;
  };
}

function checkTest(c: CheckDef, length: ((v: unknown) => number) | null): ((v: unknown) => boolean) | null {
  if (length && c.check === 'min_length') return (v) => length(v) >= c.minimum!;
  if (length && c.check === 'max_length') return (v) => length(v) <= c.maximum!;
  if (length && c.check === 'length_equals') return (v) => length(v) === c.length!;
  if (c.check === 'string_format' && c.format === 'regex' && c.pattern) {
    const pattern = new RegExp(c.pattern.source, c.pattern.flags.replace('g', '').replace('y', ''));
    return (v) => pattern.test(v as string);
  }
  if (c.check === 'number_format' && c.format === 'safeint') return (v) => Number.isSafeInteger(v);
  if (c.check === 'greater_than') return c.inclusive ? (v) => (v as number) >= c.value! : (v) => (v as number) > c.value!;
  if (c.check === 'less_than') return c.inclusive ? (v) => (v as number) <= c.value! : (v) => (v as number) < c.value!;
  return null;
}

function compileArray(element: Check, checks: CheckDef[]): Check | null {
  const bounds = withChecks(checks, Array.isArray, lengthOf);
  if (!bounds) return null;
  return (v) => {
    if (bounds(v) === REFUSED) return REFUSED;
    const items = v as unknown[];
    const out = new Array<unknown>(items.length);
    for (let i = 0; i < items.length; i++) {
      const item = element(items[i]);
      if (item === REFUSED) return REFUSED;
      out[i] = item;
    }
    return out;
  };
}

/** zod's z.object: unknown keys dropped; z.strictObject (a `never` catchall): unknown keys refused. */
function compileObject(def: Def, inner: (schema: z.ZodType, step: string) => Check): Check | null {
  const strict = def.catchall !== undefined;
  if (strict && defOf(def.catchall!).type !== 'never') return null;
  const keys = Object.keys(def.shape ?? {});
  const checks = keys.map((key) => inner(def.shape![key]!, `.${key}`));
  const allowed = new Set(keys);
  return (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return REFUSED;
    const input = v as Record<string, unknown>;
    if (strict) for (const key of Object.keys(input)) if (!allowed.has(key)) return REFUSED;
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const value = checks[i]!(input[key]);
      if (value === REFUSED) return REFUSED;
      if (value !== undefined || key in input) out[key] = value;
    }
    return out;
  };
}
