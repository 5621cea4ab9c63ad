// @ts-check
import eslint from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'test/e2e/tooling/**', 'coverage/**', '.bench-results/**', 'test-results/**'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // The engine is shared by the CLI, the tests and the extension: it must never depend on VS Code.
    files: ['src/engine/**/*.ts', 'src/cli/**/*.ts', 'src/webview/**/*.ts', 'src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'vscode',
              message: 'src/engine, src/cli, src/webview and src/shared never import vscode: inject host capabilities instead.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', 'scripts/**'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // End-to-end tests hand functions to the browser (page.evaluate): both sets of globals apply.
    files: ['test/e2e/**/*.mjs', 'bench/**'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // The test-only VS Code extensions are plain CommonJS, as VS Code loads them.
    files: ['test/e2e/fixtures/{lm-provider,empty-extension}/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
