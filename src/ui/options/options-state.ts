import { signal, type Signal } from '@preact/signals';
import type { Settings } from '../../settings/schema';
import type { SettingsIssue } from '../../settings/settings-errors';

/** The browser and storage operations the options page uses; injected so tests can run it in happy-dom. */
export interface OptionsDependencies {
  load(): Promise<{ settings: Settings; errors: SettingsIssue[] }>;
  /** Validates and stores the whole document; rejects naming the bad fields. */
  save(settings: Settings): Promise<Settings>;
  onChanged(listener: (settings: Settings) => void): () => void;
  /** Asks for host permission for these origins at once; true when granted or not needed. Call straight from a click. */
  requestOriginPermission(...origins: string[]): Promise<boolean>;
  /** Switches a site (asking permission where needed). */
  switchSite(origin: string, enabled: boolean): Promise<{ ok: true } | { ok: false; message: string }>;
  fetch: typeof fetch;
  /** Offers text as a file download. */
  download(fileName: string, content: string): void;
}

export interface OptionsState {
  settings: Signal<Settings | undefined>;
  /** Why the stored document was set aside at load, if it was. */
  loadErrors: Signal<SettingsIssue[]>;
  /** A line saying what just happened ("Saved."), or undefined. */
  status: Signal<{ kind: 'ok' | 'error'; text: string } | undefined>;
  dependencies: OptionsDependencies;
  /** Saves a changed document and reports the outcome; resolves false when it was refused. */
  saveSettings(next: Settings, doneText: string): Promise<boolean>;
  dispose(): void;
}

export function createOptionsState(dependencies: OptionsDependencies): OptionsState {
  const settings = signal<Settings | undefined>(undefined);
  const loadErrors = signal<SettingsIssue[]>([]);
  const status = signal<OptionsState['status']['value']>(undefined);
  void dependencies.load().then((loaded) => {
    settings.value = loaded.settings;
    loadErrors.value = loaded.errors;
  });
  const stop = dependencies.onChanged((next) => (settings.value = next));
  return {
    settings,
    loadErrors,
    status,
    dependencies,
    async saveSettings(next, doneText) {
      try {
        settings.value = await dependencies.save(next);
        status.value = { kind: 'ok', text: doneText };
        return true;
      } catch (error) {
        status.value = { kind: 'error', text: error instanceof Error ? error.message : String(error) };
        return false;
      }
    },
    dispose: stop,
  };
}
