import type { Plugin } from 'vite';

/**
 * The store's linter (`web-ext lint`) warns about every `innerHTML` assignment in the bundle, and
 * reads bundled libraries like our own code. Retinue never assigns HTML strings (markdown goes in as
 * sanitised nodes), so the two library paths that could are cut out at build time:
 * - Preact's `dangerouslySetInnerHTML` support: Retinue does not use it; using it now throws.
 * - DOMPurify's fallback for browsers whose DOMParser cannot parse HTML: on such a browser it now
 *   sanitises to nothing (fails closed) instead of parsing through `innerHTML`.
 * Versions are pinned; a build fails when a pattern is missing, so an upgrade is looked at.
 */
const rewrites: Array<{ module: RegExp; from: string; to: string }> = [
  {
    module: /node_modules\/preact\/dist\/preact\.mjs$/,
    from: '(t.innerHTML=h.__html)',
    to: '(()=>{throw new Error("Retinue inserts nodes, never dangerouslySetInnerHTML")})()',
  },
  {
    module: /node_modules\/dompurify\/dist\/purify\.es\.mjs$/,
    from: 'doc.documentElement.innerHTML = IS_EMPTY_INPUT ? emptyHTML : dirtyPayload;',
    to: '/* Retinue: no innerHTML fallback; the document stays empty. */',
  },
];

export function noLibraryInnerHtml(): Plugin {
  return {
    name: 'retinue-no-library-inner-html',
    enforce: 'pre',
    transform(code, id) {
      const rewrite = rewrites.find((candidate) => candidate.module.test(id.split('?')[0] ?? id));
      if (!rewrite) return undefined;
      if (!code.includes(rewrite.from)) {
        throw new Error(`${id}: the innerHTML assignment this build removes has changed; update scripts/no-library-inner-html.ts for the new version.`);
      }
      return { code: code.replace(rewrite.from, rewrite.to), map: null };
    },
  };
}
