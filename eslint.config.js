import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['.output/', '.wxt/', 'node_modules/', 'test-output/', 'dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/entrypoints/**'], message: 'src/ never imports from entrypoints/.' }] }],
    },
  },
  {
    files: ['tests/**', 'scripts/**'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // Plain browser scripts of the fixture and demo chat pages (no build step).
    files: ['tests/fixtures/**/*.js', 'scripts/demo/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: Object.fromEntries(
        ['window', 'document', 'location', 'fetch', 'Headers', 'Request', 'URL', 'URLSearchParams', 'AbortController',
          'TextDecoder', 'console', 'setTimeout', 'clearTimeout'].map((name) => [name, 'readonly']),
      ),
    },
  },
);
