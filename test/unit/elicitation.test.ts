import assert from 'node:assert/strict';
import { contentFromValues, FormView, formFromSchema, initialValues } from '../../src/common/elicitation';
import { checkContent } from '../../src/common/elicitationCheck';

const form = (schema: unknown): FormView => {
  const r = formFromSchema(schema);
  if ('error' in r) throw new Error(r.error);
  return r.form;
};

const ALL = {
  type: 'object', title: 'Deploy', description: 'Where to?',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2, maxLength: 5, default: 'abc' },
    email: { type: 'string', format: 'email' },
    code: { type: 'string', pattern: '^[A-Z]{3}$' },
    day: { type: 'string', format: 'date' },
    env: { type: 'string', enum: ['dev', 'prod'], default: 'dev' },
    region: { type: 'string', oneOf: [{ const: 'eu', title: 'Europe' }, { const: 'us', title: 'America' }] },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2, default: ['a'] },
    picks: { type: 'array', items: { anyOf: [{ const: 'x', title: 'Ex' }] } },
    count: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
    ratio: { type: 'number', minimum: 0, maximum: 1 },
    ok: { type: 'boolean', default: true },
  },
  required: ['name', 'env', 'count'],
};

describe('elicitation forms', () => {
  it('turns every supported property type into a field, with defaults and required marks', () => {
    const f = form(ALL);
    assert.deepEqual(f.fields.map(x => [x.name, x.kind, x.required]), [
      ['name', 'text', true], ['email', 'text', false], ['code', 'text', false], ['day', 'text', false], ['env', 'select', true],
      ['region', 'select', false], ['tags', 'multiselect', false], ['picks', 'multiselect', false], ['count', 'number', true],
      ['ratio', 'number', false], ['ok', 'boolean', false],
    ]);
    assert.deepEqual({ ...f.fields.find(x => x.name === 'region') }, { name: 'region', title: 'region', description: undefined, required: false, kind: 'select', options: [{ value: 'eu', label: 'Europe' }, { value: 'us', label: 'America' }] });
    assert.deepEqual(initialValues(f), { name: 'abc', email: '', code: '', day: '', env: 'dev', region: '', tags: ['a'], picks: [], count: '3', ratio: '', ok: true });
  });

  it('refuses schemas it cannot render, saying why', () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ type: 'object', properties: { o: { type: 'object', properties: {} } } }, /property "o": type "object" is not supported/],
      [{ properties: { s: { type: 'string', pattern: '(' } } }, /pattern is not a valid regular expression/],
      [{ properties: { s: { type: 'string', minLength: 5, maxLength: 2 } } }, /minLength 5 is greater than maxLength 2/],
      [{ properties: { s: { type: 'string', format: 'ipv4' } } }, /format "ipv4" is not supported/],
      [{ properties: { s: { type: 'string', enum: ['a'], default: 'b' } } }, /default "b" is not one of the options/],
      [{ properties: { n: { type: 'integer', minimum: 1.5 } } }, /minimum must be an integer/],
      [{ properties: { a: { type: 'array', items: { type: 'number' } } } }, /items must be/],
      [{ properties: {}, required: ['ghost'] }, /required names unknown properties: "ghost"/],
      [{ type: 'array', properties: {} }, /type must be "object"/],
      ['nope', /must be an object/],
      [{ properties: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, { type: 'boolean' }])) }, /at most 50 fields/],
    ];
    for (const [schema, why] of bad) {
      const r = formFromSchema(schema);
      assert.ok('error' in r, JSON.stringify(schema));
      assert.match(r.error, why);
      assert.match(r.error, /^Unsupported elicitation schema: /);
    }
  });

  it('neutralizes bidi controls in titles and options', () => {
    const f = form({ properties: { s: { type: 'string', title: 'a\u202Eb', enum: ['x\u202Ey'] } } });
    assert.doesNotMatch(f.fields[0].title + (f.fields[0] as unknown as { options: { label: string }[] }).options[0].label, /\u202E/);
    assert.equal((f.fields[0] as unknown as { options: { value: string }[] }).options[0].value, 'x\u202Ey', 'the value sent back is the agent\'s own');
  });

  it('builds content: numbers parsed, empty optional fields left out, unknown names dropped', () => {
    const f = form(ALL);
    const { content, errors } = contentFromValues(f, { ...initialValues(f), ratio: '0.5', email: '', extra: 'x' });
    assert.deepEqual(errors, {});
    assert.deepEqual(content, { name: 'abc', env: 'dev', tags: ['a'], count: 3, ratio: 0.5, ok: true });
    assert.deepEqual(contentFromValues(f, { count: '3 apples', ratio: '1e400' }).errors, { count: 'Enter a whole number.', ratio: 'Enter a number.' });
  });

  it('validates content with ajv: lengths, formats, pattern, bounds, choices, required', () => {
    const f = form(ALL);
    assert.deepEqual(checkContent(f, { name: 'abc', env: 'dev', count: 3 }), {});
    assert.deepEqual(checkContent(f, {
      name: 'a', email: 'not-an-email', code: 'abc', day: '2026-02-30', env: 'qa', region: 'eu', tags: ['a', 'b', 'c'], count: 11, ratio: -1,
    }), {
      name: 'Enter at least 2 characters.', email: 'Enter an email address.', code: 'Does not have the expected form.',
      day: 'Enter a date (YYYY-MM-DD).', env: 'Choose one of the options.', tags: 'Choose at most 2.', count: 'Must be at most 10.', ratio: 'Must be at least 0.',
    });
    assert.deepEqual(checkContent(f, { env: 'dev', count: 2.5 }), { name: 'Required.', count: 'Enter a whole number.' });
    assert.deepEqual(checkContent(form({ properties: { w: { type: 'string', format: 'date-time' }, u: { type: 'string', format: 'uri' } } }),
      { w: '2026-07-01T09:30:00Z', u: 'https://example.com/x' }), {});
  });

  it('a catastrophic pattern cannot hang the host: it fails in bounded time', () => {
    // 2^40 backtracking steps unguarded: without the time limit this test never ends (mocha's timeout
    // fails it); no wall-clock bound is asserted, so a slow machine cannot fail it.
    const f = form({ properties: { s: { type: 'string', pattern: '^(a+)+$' } } });
    assert.deepEqual(checkContent(f, { s: 'a'.repeat(40) + '!' }), { s: 'Does not have the expected form.' });
    assert.deepEqual(checkContent(f, { s: 'aaa' }), {});
  });
});

describe('question/answer messages from the webview', () => {
  it('accepts bounded values and refuses anything else', async () => {
    const { parseViewMessage } = await import('../../src/common/protocol');
    assert.deepEqual(parseViewMessage({ type: 'question/answer', tab: 'tab1', itemId: 'i2', action: 'accept', values: { a: 'x', b: true, c: ['p'] } }),
      { type: 'question/answer', tab: 'tab1', itemId: 'i2', action: 'accept', values: { a: 'x', b: true, c: ['p'] } });
    for (const bad of [
      { type: 'question/answer', tab: 'tab1', itemId: 'i2', action: 'grant' },
      { type: 'question/answer', itemId: 'i2', action: 'accept', values: { a: 1 } },
      { type: 'question/answer', itemId: 'i2', action: 'accept', values: { a: { nested: true } } },
      { type: 'question/answer', itemId: 'i2', action: 'accept', values: ['x'] },
      { type: 'question/answer', itemId: 'i2', action: 'accept', values: { a: 'x'.repeat(10_001) } },
      { type: 'question/answer', itemId: 'i2', action: 'accept', values: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) },
    ]) assert.equal(parseViewMessage(bad), undefined, JSON.stringify(bad).slice(0, 80));
  });
});
