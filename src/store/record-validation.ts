import type { z } from 'zod';
import { HostContractError, RetinueError } from '../errors';

/** Describes zod issues as `field: what is wrong` lines, for error messages. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(record)'}: ${issue.message}`)
    .join('; ');
}

/**
 * Parses a record with its schema before it is stored (or after it is loaded), so nothing malformed
 * ever crosses the store boundary; refuses with a HostContractError that names the field.
 */
export function validateRecord<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  options: { kind: string; direction: 'store' | 'load' },
): z.output<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const verb = options.direction === 'store' ? 'Refused to store' : 'Could not load';
  throw new HostContractError(
    `store-record-invalid`,
    `${verb} a ${options.kind} that does not match its schema (${describeIssues(result.error)}). ` +
      (options.direction === 'store'
        ? `Fix the code that builds this ${options.kind}; nothing was written.`
        : `The stored ${options.kind} needs a migration in src/store/migrations.ts.`),
    { cause: result.error },
  );
}

/**
 * Runs one store operation and turns IndexedDB failures into HostContractErrors (with the original
 * as `cause`), which fail the run fast; errors we raised ourselves pass through unchanged.
 */
export async function storeOperation<T>(what: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof RetinueError) throw error;
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new HostContractError(
      'store-failed',
      `The run store could not ${what} (${detail}). The browser's storage may be full or closed; ` +
        'free space or reload the extension, then try again.',
      { cause: error },
    );
  }
}
