// The `session/update` screen's schema, checked once per message and cheaply (refusals.ts). The SDK's
// schema of the params is an object whose `update` is a union of 19 intersections
// (`ToolCallUpdate.and({ sessionUpdate: literal("tool_call_update") })`, …): zod tries the members
// in order, building the issues of every member that fails before the one that matches, and merges
// both sides of each intersection value by value. A 20,000-update turn spent ~0.4 s of the extension
// host there (profile of issue 23). Here each kind gets its own schema, built once from the SDK's:
// the params object with `update` narrowed to the one member whose literal names that kind, and
// every intersection of two objects in that member written as one object (`left.extend(right.shape)`,
// same output: each side strips the other's keys, the merge puts them back together) — the member
// itself, and inside it the content blocks, a tool call's content and a plan (`flat`): 20,000
// updates of bench/long-turn parse in 38 ms instead of 57 (varied), 144 instead of 206 (tools).
// Only the matching member can accept an update (the literals differ), so a kind's schema accepts
// exactly what the full one does; a refusal is still described by the full schema (same first issue
// as before), and an update of an unknown kind goes to the full schema. test/unit/refusals.test.ts
// checks the equivalence on every update of the fuzz and burst generators.

/** The few zod (v4) internals read here; anything else, and the full schema is used as it is. */
interface ZodLike {
  safeParse(raw: unknown): { success: boolean; data?: unknown; error?: unknown };
  _zod?: { def?: ZodDef };
  shape?: Record<string, ZodLike>;
  options?: ZodLike[];
  extend?(shape: Record<string, ZodLike>): ZodLike;
  clone?(def: ZodDef): ZodLike;
}
interface ZodDef {
  type?: string; left?: ZodLike; right?: ZodLike; values?: unknown[]; options?: ZodLike[]; element?: ZodLike;
  innerType?: ZodLike; in?: ZodLike; out?: ZodLike; valueType?: ZodLike; catchall?: unknown; checks?: unknown[];
}

export type UpdateSchema = Pick<ZodLike, 'safeParse'>;

/** `parse(params)`: the full schema's verdict, reached through the kind's own schema when it accepts. */
export function updateParser(full: UpdateSchema): (raw: unknown) => ReturnType<UpdateSchema['safeParse']> {
  const byKind = kindSchemas(full as ZodLike);
  return raw => {
    const update = raw && typeof raw === 'object' ? (raw as { update?: unknown }).update : undefined;
    const tag = update && typeof update === 'object' ? (update as { sessionUpdate?: unknown }).sessionUpdate : undefined;
    const schema = typeof tag === 'string' ? byKind.get(tag) : undefined;
    if (schema) {
      const parsed = schema.safeParse(raw);
      if (parsed.success) return parsed;
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
