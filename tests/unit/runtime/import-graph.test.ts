import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The files a module imports at run time (type-only imports are erased and cannot form a circle). */
function runtimeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const imports: string[] = [];
  // Statements end with ';' (the code style), so a statement may span lines.
  for (const raw of text.split(';')) {
    const statement = raw.trim();
    if (!statement.startsWith('import ') && !statement.startsWith('export ')) continue;
    if (statement.startsWith('import type ') || statement.startsWith('export type ')) continue;
    const from = statement.lastIndexOf(" from '.");
    if (from === -1) continue;
    const specifier = statement.slice(from + 7, statement.indexOf("'", from + 8));
    const target = resolve(dirname(file), specifier);
    const found = [`${target}.ts`, `${target}.tsx`, join(target, 'index.ts')].find((candidate) => existsSync(candidate));
    if (found) imports.push(found);
  }
  return imports;
}

/** Every import circle among `files`, each as the sorted list of its files (relative to src/). */
function importCircles(files: readonly string[]): string[][] {
  const graph = new Map(files.map((file) => [file, runtimeImports(file)]));
  const circles: string[][] = [];
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  let counter = 0;
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) as number, low.get(next) as number));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file) as number, index.get(next) as number));
    }
    if (low.get(file) !== index.get(file)) return;
    const circle: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      circle.push(relative(SRC, member));
    } while (member !== file);
    if (circle.length > 1) circles.push(circle.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return circles;
}

test('src/ has no import circle', () => {
  expect(importCircles(sourceFiles(SRC))).toEqual([]);
});

test('the tools import nothing from the runtime: the runtime gives them what they need through ports', () => {
  const offenders = sourceFiles(join(SRC, 'tools')).filter((file) => readFileSync(file, 'utf8').includes("from '../runtime/"));
  expect(offenders.map((file) => relative(SRC, file))).toEqual([]);
});
