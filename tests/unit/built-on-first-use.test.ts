import { expect, test } from 'vitest';
import { z } from 'zod/mini';
import { builtOnFirstUse } from '../../src/built-on-first-use';

test('a value is built at its first use, not before, and the same value serves every later use', () => {
  let builds = 0;
  const schema = builtOnFirstUse(() => {
    builds += 1;
    return z.array(z.string().check(z.maxLength(3)));
  });
  expect(builds).toBe(0);

  expect(schema().safeParse(['abc']).success).toBe(true);
  expect(schema().safeParse(['abcd']).success).toBe(false);
  expect(schema()).toBe(schema());
  expect(builds).toBe(1);
});

test('a build that gives undefined is kept too, not run again', () => {
  let builds = 0;
  const nothing = builtOnFirstUse(() => {
    builds += 1;
    return undefined;
  });
  expect([nothing(), nothing()]).toEqual([undefined, undefined]);
  expect(builds).toBe(1);
});
