// The `session/update` screen's schema, checked once per message and cheaply (refusals.ts). The SDK's
// schema of the params is an object whose `update` is a union of 19 intersections
// (`ToolCallUpdate.and({ sessionUpdate: literal("tool_call_update") })`, …): zod tries the members
// in order, building the issues of every member that fails before the one that matches, and merges
// both sides of each intersection value by value. A 20,000-update turn spent ~0.4 s of the extension
// host there (profile of issue 23). Here each kind gets its own schema, built once from the SDK's:
// the params object with `update` narrowed to the one member whose literal names that kind, and
// every intersection of two objects in that member written as one object (`left.extend(right.shape)`,
// same output: each side strips the other's keys, the merge puts them back together) — the member
// itself, and inside it the content blocks, a tool call's content and a plan (`flat`). Only the
// matching member can accept an update (the literals differ), so a kind's schema accepts exactly
// what the full one does. Each kind's schema is then compiled (`screenOf`, below): plain functions
// that build zod's output without zod's per-node payloads and issue lists, zod itself parsing every
// node they do not model. 20,000 updates of bench/long-turn parse in 4–5 ms (tools, varied; 9 in a
// noisy round) instead of 31–46 with the kind's zod schema and 200–260 with the full one (medians of
// 7 interleaved rounds in one Node process, two runs at load 8).
// An update the compiled screen refuses, or of an unknown kind, goes to the full schema: its
// verdict, and a refusal described by its first issue as before. test/unit/refusals.test.ts checks
// the output (values, undefined-valued keys, key order) against the full schema's on the fuzz and
// burst generators, 8,000 seeded mutations of them (wrong types, missing and extra keys, `__proto__`,
// huge strings, deep nesting) and hand-made edge cases.

/** The few zod (v4) internals read here; anything else, and the full schema is used as it is. */
interface ZodLike {
  safeParse(raw: unknown): { success: boolean; data?: unknown; error?: unknown };
  _zod?: { def?: ZodDef; traits?: Set<string>; optin?: 'optional' | 'defaulted'; optout?: 'optional' };
  shape?: Record<string, ZodLike>;
  options?: ZodLike[];
  extend?(shape: Record<string, ZodLike>): ZodLike;
  clone?(def: ZodDef): ZodLike;
}
interface ZodDef {
  type?: string; left?: ZodLike; right?: ZodLike; values?: unknown[]; options?: ZodLike[]; element?: ZodLike;
  innerType?: ZodLike; in?: ZodLike; out?: ZodLike; valueType?: ZodLike; catchall?: unknown; checks?: unknown[];
  shape?: Record<string, ZodLike>; coerce?: unknown; discriminator?: unknown; inclusive?: boolean;
}

export type UpdateSchema = Pick<ZodLike, 'safeParse'>;

/** `parse(params)`: the full schema's verdict, reached through the kind's compiled screen when it accepts. */
export function updateParser(full: UpdateSchema): (raw: unknown) => ReturnType<UpdateSchema['safeParse']> {
  const byKind = new Map<string, Screen>();
  const compiled = new Map<ZodLike, Screen>();
  for (const [tag, schema] of kindSchemas(full as ZodLike)) byKind.set(tag, screenOf(schema, compiled));
  return raw => {
    const update = raw && typeof raw === 'object' ? (raw as { update?: unknown }).update : undefined;
    const tag = update && typeof update === 'object' ? (update as { sessionUpdate?: unknown }).sessionUpdate : undefined;
    const screen = typeof tag === 'string' ? byKind.get(tag) : undefined;
    if (screen) {
      const data = screen(raw);
      if (data !== FAIL) return { success: true, data };
    }
    return full.safeParse(raw);
  };
}

/** One schema per update kind; empty when the SDK's schema is not shaped as expected. */
function kindSchemas(full: ZodLike): Map<string, ZodLike> {
  const out = new Map<string, ZodLike>();
  try {
    const union = full.shape?.update;
    if (full._zod?.def?.type !== 'object' || typeof full.extend !== 'function' || union?._zod?.def?.type !== 'union' || !Array.isArray(union.options)) return out;
    const memo = new Map<ZodLike, ZodLike>();
    for (const member of union.options) {
      const def = member._zod?.def;
      const literal = def?.right?.shape?.sessionUpdate?._zod?.def;
      if (def?.type !== 'intersection' || literal?.type !== 'literal' || literal.values?.length !== 1 || typeof literal.values[0] !== 'string') return new Map();
      const tag = literal.values[0];
      if (out.has(tag)) return new Map();
      out.set(tag, full.extend({ update: flat(member, memo) }));
    }
  } catch {
    return new Map();
  }
  return out;
}

/**
 * `schema` with every intersection of two plain objects in it (at any depth: the content blocks of a
 * message chunk, a tool call's content, a plan) written as one object, `left.extend(right.shape)`:
 * the same output (each side of an intersection strips the other's keys; the merge puts them back),
 * without parsing the value twice and merging the results key by key. What is not a plain object
 * intersection is rebuilt only where something inside it changed (`clone` with the new parts).
 */
function flat(schema: ZodLike, memo: Map<ZodLike, ZodLike>): ZodLike {
  const known = memo.get(schema);
  if (known) return known;
  memo.set(schema, schema); // a schema reached again inside itself (none in ACP today) stays as it is
  const def = schema._zod?.def;
  const part = (s: ZodLike | undefined) => (s ? flat(s, memo) : s);
  let out = schema;
  switch (def?.type) {
    case 'intersection': {
      const left = part(def.left)!, right = part(def.right)!;
      if (plainObject(left) && plainObject(right) && !Object.keys(right.shape!).some(k => k in left.shape!)) out = left.extend!(right.shape!);
      else if (left !== def.left || right !== def.right) out = schema.clone!({ ...def, left, right });
      break;
    }
    case 'object': {
      const changed: Record<string, ZodLike> = {};
      for (const [key, field] of Object.entries(schema.shape ?? {})) {
        const f = flat(field, memo);
        if (f !== field) changed[key] = f;
      }
      if (Object.keys(changed).length && typeof schema.extend === 'function' && !def.checks?.length) out = schema.extend(changed);
      break;
    }
    case 'union': {
      const options = (def.options ?? []).map(o => flat(o, memo));
      if (options.some((o, i) => o !== def.options![i])) out = schema.clone!({ ...def, options });
      break;
    }
    default: {
      // Wrappers and containers: one inner schema each (pipes two).
      const keys = (['element', 'innerType', 'in', 'out', 'valueType'] as const).filter(k => def?.[k]);
      const inner = Object.fromEntries(keys.map(k => [k, part(def![k])]));
      if (keys.some(k => inner[k] !== def![k]) && typeof schema.clone === 'function') out = schema.clone({ ...def, ...inner });
    }
  }
  memo.set(schema, out);
  return out;
}

/** An object schema with no refinement, stripping unknown keys (zod's default): merging two is exact. */
function plainObject(s: ZodLike): boolean {
  const def = s._zod?.def;
  return def?.type === 'object' && def.catchall === undefined && !def.checks?.length && !!s.shape && typeof s.extend === 'function';
}

/**
 * The screen's fast path: a kind's schema compiled into plain functions, one per schema node, each
 * returning what zod's node returns, or FAIL exactly when zod's node has issues. Where zod builds a
 * payload and an issue list per node and value (most of a parse of a valid update), these read the
 * value and build the output only. Compiled: objects (generated code, keys in the schema's order,
 * absent and present keys as `handlePropertyResult` treats them), arrays, strings, literals,
 * unions (first member that accepts), optional, nullable, unknown and pipes; a `catch` whose inner
 * schema refuses asks zod's catch for its value (the SDK's defaults for bad optional fields, the
 * skipped items of its lists). Any other node — records (`_meta`), numbers, transforms, refinements,
 * what a later zod or SDK adds — is zod's own node, parsed by zod (`safeParse` of that node alone).
 * So the output is zod's by construction (and checked: see the top). Written here, not a library:
 * ajv (from the SDK's JSON schema) reports invalid where the SDK's `defaultOnError` / `vecSkipError`
 * drop a bad optional field or list item and `defaultOnNull` fills one; zod's own `compile()` (4.6)
 * refuses the SDK's schema (its catch values are callbacks, which it cannot prove ignore the parse
 * context) and is not reachable from the extension's bundle (zod is only in dist/acp-sdk.js).
 */
type Screen = (value: unknown) => unknown;
const FAIL: unique symbol = Symbol('fail');

function screenOf(schema: ZodLike, memo: Map<ZodLike, Screen>): Screen {
  const known = memo.get(schema);
  if (known) return known;
  let run: Screen = byZod(schema);
  memo.set(schema, value => run(value)); // a schema reached again inside itself (none in ACP today)
  try {
    run = compiled(schema, memo) ?? run;
  } catch {
    // a node shaped in a way not foreseen here: zod parses it
  }
  memo.set(schema, run);
  return run;
}

/** zod's own verdict on one node. */
function byZod(schema: ZodLike): Screen {
  return value => {
    const r = schema.safeParse(value);
    return r.success ? r.data : FAIL;
  };
}

function compiled(schema: ZodLike, memo: Map<ZodLike, Screen>): Screen | undefined {
  const z = schema._zod;
  const def = z?.def;
  if (!z || !def || def.checks?.length || !(z.traits instanceof Set)) return undefined;
  const has = (trait: string) => z.traits!.has(trait);
  const inner = (s: ZodLike | undefined) => (s ? screenOf(s, memo) : undefined);
  switch (def.type) {
    case 'string':
      return has('$ZodString') && !has('$ZodStringFormat') && !def.coerce ? value => (typeof value === 'string' ? value : FAIL) : undefined;
    case 'unknown':
      return has('$ZodUnknown') ? value => value : undefined;
    case 'literal': {
      if (!has('$ZodLiteral') || !Array.isArray(def.values)) return undefined;
      const values = new Set(def.values);
      return value => (values.has(value) ? value : FAIL);
    }
    case 'optional': {
      const run = inner(def.innerType);
      if (!has('$ZodOptional') || !run || def.innerType?._zod?.optin === 'defaulted') return undefined;
      return value => (value === undefined ? undefined : run(value));
    }
    case 'nullable': {
      const run = inner(def.innerType);
      return has('$ZodNullable') && run ? value => (value === null ? null : run(value)) : undefined;
    }
    case 'catch': {
      const run = inner(def.innerType);
      if (!has('$ZodCatch') || !run) return undefined;
      // Refused inside: the catch's value, from zod (the callback gets the issues it expects).
      return value => {
        const out = run(value);
        return out !== FAIL ? out : schema.safeParse(value).data;
      };
    }
    case 'array': {
      const run = inner(def.element);
      if (!has('$ZodArray') || !run) return undefined;
      return value => {
        if (!Array.isArray(value)) return FAIL;
        const out = new Array<unknown>(value.length);
        for (let i = 0; i < value.length; i++) {
          const item = run(value[i]);
          if (item === FAIL) return FAIL;
          out[i] = item;
        }
        return out;
      };
    }
    case 'union': {
      if (!has('$ZodUnion') || has('$ZodXor') || has('$ZodDiscriminatedUnion') || def.inclusive === false || def.discriminator !== undefined || !def.options?.length) return undefined;
      const runs = def.options.map(o => screenOf(o, memo));
      return value => {
        for (const run of runs) {
          const out = run(value);
          if (out !== FAIL) return out;
        }
        return FAIL;
      };
    }
    case 'pipe': {
      const first = inner(def.in), then = inner(def.out);
      if (!has('$ZodPipe') || has('$ZodCodec') || !first || !then) return undefined;
      return value => {
        const mid = first(value);
        return mid === FAIL ? FAIL : then(mid);
      };
    }
    case 'object':
      return has('$ZodObject') && def.catchall === undefined ? objectScreen(def.shape, memo) : undefined;
    default:
      return undefined;
  }
}

/**
 * zod's object (stripping unknown keys) as code with its keys written out, as zod's own JIT does
 * for its objects, when every field is required or optional in and out (all of ACP's; any other,
 * and zod parses the object): a present key is screened and kept (also when its value is
 * undefined), an absent optional one skipped, an absent required one refused — zod's
 * `handlePropertyResult` for those two kinds of field.
 */
function objectScreen(shape: Record<string, ZodLike> | undefined, memo: Map<ZodLike, Screen>): Screen | undefined {
  if (!shape || Object.getOwnPropertySymbols(shape).length) return undefined;
  const keys = Object.keys(shape).filter(key => key !== '__proto__');
  const required = (key: string) => shape[key]._zod?.optin === undefined;
  if (!keys.every(key => required(key) || (shape[key]._zod?.optin === 'optional' && shape[key]._zod?.optout === 'optional'))) return undefined;
  const runs = keys.map(key => screenOf(shape[key], memo));
  const code = keys.map((key, i) => {
    const k = JSON.stringify(key);
    const take = `r = f${i}(v[${k}]); if (r === FAIL) return FAIL; o[${k}] = r;`;
    return required(key) ? `if (!(${k} in v)) return FAIL; ${take}` : `if (${k} in v) { ${take} }`;
  });
  try {
    // The keys come from the SDK's schema, quoted by JSON.stringify; the functions are passed in.
    const make = new Function('FAIL', ...runs.map((_, i) => `f${i}`), `return v => {
      if (typeof v !== "object" || v === null || Array.isArray(v)) return FAIL;
      const o = {}; let r;
      ${code.join('\n      ')}
      return o;
    };`) as (...args: unknown[]) => Screen;
    return make(FAIL, ...runs);
  } catch {
    return undefined; // code generation not allowed here: zod parses the object
  }
}
