import type { Plugin } from 'vite';

/** zod's own modules that take the `Function` constructor for its compiled parsers and its probe. */
const ZOD_CORE_MODULE = /[\\/]node_modules[\\/]zod[\\/].*\.js$/;
const FUNCTION_CONSTRUCTOR = 'const F = Function;';
const REFUSING_CONSTRUCTOR =
  "const F = function () { throw new EvalError('Retinue builds zod without code generation: it runs jitless.'); };";

/**
 * A Vite plugin that takes the `Function` constructor out of the bundled zod. Retinue runs zod jitless
 * (`src/zod-jitless.ts`), so the constructor is never called; without this, the bundles would still
 * hold it and store linters (addons.mozilla.org's DANGEROUS_EVAL) flag every bundle. If zod ever did
 * try to compile, it would get an EvalError, which zod already treats as "no code generation here".
 */
export function zodWithoutCodeGeneration(): Plugin {
  return {
    name: 'retinue-zod-without-code-generation',
    enforce: 'pre',
    transform(code, id) {
      if (!ZOD_CORE_MODULE.test(id) || !code.includes(FUNCTION_CONSTRUCTOR)) return undefined;
      return { code: code.split(FUNCTION_CONSTRUCTOR).join(REFUSING_CONSTRUCTOR), map: null };
    },
  };
}
