import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BRIDGE_FILE, PAGE_HOOK_FILE } from '../../src/extension/hook-registrations';
import { CHROME_MANIFEST_KEY, GECKO_ID } from '../../src/extension/identity';
import { listZipEntries, readZipEntry } from '../support/read-zip-entry';

const runFile = promisify(execFile);
const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Runs the WXT command line into a scratch folder, so `.output/` stays the e2e tests' own. */
async function wxt(args: string[], options: { outDir: string; store?: boolean }): Promise<void> {
  await runFile(path.join(repositoryRoot, 'node_modules/.bin/wxt'), args, {
    cwd: repositoryRoot,
    env: { ...process.env, RETINUE_OUT_DIR: options.outDir, RETINUE_STORE: options.store ? '1' : '' },
    maxBuffer: 16 * 1024 * 1024,
  });
}

type Manifest = Record<string, unknown> & {
  permissions?: string[];
  host_permissions?: string[];
  optional_host_permissions?: string[];
  content_scripts?: { js?: string[] }[];
};

const readManifest = (directory: string): Manifest => JSON.parse(readFileSync(path.join(directory, 'manifest.json'), 'utf8'));

const staticScripts = (manifest: Manifest): string[] => (manifest.content_scripts ?? []).flatMap((script) => script.js ?? []);

const buildDirectory = mkdtempSync(path.join(tmpdir(), 'retinue-build-'));
const storeDirectory = mkdtempSync(path.join(tmpdir(), 'retinue-store-'));

beforeAll(async () => {
  await wxt(['build'], { outDir: buildDirectory });
  await wxt(['build', '-b', 'firefox', '--mv3'], { outDir: buildDirectory });
  await wxt(['zip'], { outDir: storeDirectory, store: true });
  await wxt(['zip', '-b', 'firefox', '--mv3'], { outDir: storeDirectory, store: true });
}, 300_000);

afterAll(() => {
  rmSync(buildDirectory, { recursive: true, force: true });
  rmSync(storeDirectory, { recursive: true, force: true });
});

describe('the Chrome build', () => {
  const directory = path.join(buildDirectory, 'chrome-mv3');

  test('is MV3 with a side panel, an options page in a tab, and localized names', () => {
    const manifest = readManifest(directory);

    expect(manifest.manifest_version).toBe(3);
    expect(manifest.side_panel).toEqual({ default_path: 'sidepanel.html' });
    expect(manifest.options_ui).toEqual({ page: 'options.html', open_in_tab: true });
    expect(manifest.name).toBe('__MSG_extName__');
    expect(manifest.default_locale).toBe('en');
  });

  test('asks for the least permissions: loopback hosts up front, every other origin optional', () => {
    const manifest = readManifest(directory);

    expect(manifest.permissions).toEqual(expect.arrayContaining(['storage', 'scripting', 'sidePanel', 'unlimitedStorage']));
    expect([...(manifest.host_permissions ?? [])].sort()).toEqual(['http://127.0.0.1/*', 'http://localhost/*']);
    expect(manifest.optional_host_permissions).toEqual(['*://*/*']);
  });

  test('carries the fixed development key', () => {
    expect(readManifest(directory).key).toBe(CHROME_MANIFEST_KEY);
  });

  test('builds the page hook and the bridge for runtime registration, not as static content scripts', () => {
    const manifest = readManifest(directory);

    expect(existsSync(path.join(directory, PAGE_HOOK_FILE))).toBe(true);
    expect(existsSync(path.join(directory, BRIDGE_FILE))).toBe(true);
    expect(staticScripts(manifest)).toEqual([]);
  });
});

describe('the Firefox build', () => {
  const directory = path.join(buildDirectory, 'firefox-mv3');

  test('is MV3 with a sidebar, the gecko id and no Chrome key', () => {
    const manifest = readManifest(directory);

    expect(manifest.manifest_version).toBe(3);
    expect(manifest.sidebar_action).toMatchObject({ default_panel: 'sidepanel.html' });
    expect(manifest.browser_specific_settings).toMatchObject({ gecko: { id: GECKO_ID } });
    expect(manifest).not.toHaveProperty('key');
  });

  test('asks for the same permissions, loopback hosts up front', () => {
    const manifest = readManifest(directory);

    expect(manifest.permissions).toEqual(expect.arrayContaining(['storage', 'scripting', 'unlimitedStorage']));
    expect([...(manifest.host_permissions ?? [])].sort()).toEqual(['http://127.0.0.1/*', 'http://localhost/*']);
  });

  test('builds the page hook and the bridge for runtime registration only', () => {
    expect(existsSync(path.join(directory, PAGE_HOOK_FILE))).toBe(true);
    expect(existsSync(path.join(directory, BRIDGE_FILE))).toBe(true);
    expect(staticScripts(readManifest(directory))).toEqual([]);
  });
});

describe('the store zips', () => {
  const zipNamed = (suffix: string): string => {
    const name = readdirSync(storeDirectory).find((file) => file.endsWith(suffix));
    if (!name) throw new Error(`no zip ending in ${suffix} in ${readdirSync(storeDirectory).join(', ')}`);
    return path.join(storeDirectory, name);
  };

  test('the Chrome zip carries no key and holds the page hook', () => {
    const zip = zipNamed('-chrome.zip');
    const manifest = JSON.parse(readZipEntry(zip, 'manifest.json').toString('utf8')) as Manifest;

    expect(manifest).not.toHaveProperty('key');
    expect(manifest.side_panel).toEqual({ default_path: 'sidepanel.html' });
    expect(listZipEntries(zip)).toEqual(expect.arrayContaining([PAGE_HOOK_FILE, BRIDGE_FILE]));
  });

  test('the Firefox zip carries the gecko id and no key', () => {
    const manifest = JSON.parse(readZipEntry(zipNamed('-firefox.zip'), 'manifest.json').toString('utf8')) as Manifest;

    expect(manifest.browser_specific_settings).toMatchObject({ gecko: { id: GECKO_ID } });
    expect(manifest).not.toHaveProperty('key');
    expect(manifest.manifest_version).toBe(3);
  });
});
