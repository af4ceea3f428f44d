import { z } from 'zod/mini';

/**
 * Zod without its code generation: no `new Function` probe or compiled parsers, so strict CSPs stay
 * quiet and store linters have nothing to flag (DESIGN.md §10: no `eval`). Every entry point that
 * bundles zod imports this module first, before any schema is built or parsed. `zod/mini` shares
 * zod's one configuration and keeps classic zod out of the bridge content script.
 */
z.config({ jitless: true });
