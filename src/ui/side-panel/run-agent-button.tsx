import { useState } from 'preact/hooks';
import { resolveProfiles } from '../../profiles/built-in-profiles';
import type { JournalEvent } from '../../records/journal';
import type { AgentRun } from '../../records/run';
import type { Settings } from '../../settings/schema';
import { t } from '../ui-text';

/** The profile that writes this run's reply, as its `run-start` event names it. */
function writerOf(journal: readonly JournalEvent[]): string | undefined {
  for (const event of journal) if (event.type === 'run-start') return event.data.rootProfileId;
  return undefined;
}

/**
 * The Run button (issue 25, `on demand` helpers and any other): starts a helper in the run that is
 * working now, as a task of the writer; its result reaches the writer, or the next turn once the reply is out.
 */
export function RunAgentButton(props: { run: AgentRun; journal: readonly JournalEvent[]; settings: Settings | undefined; onRun: (agentId: string) => void }) {
  const [chosen, setChosen] = useState('');
  if (props.run.status !== 'running' || !props.settings) return null;
  const writer = writerOf(props.journal);
  const helpers = resolveProfiles(props.settings).filter((profile) => profile.id !== writer && profile.id !== props.settings?.defaults.rootProfileId);
  if (helpers.length === 0) return null;
  const agentId = helpers.some((profile) => profile.id === chosen) ? chosen : (helpers.find((profile) => profile.runs === 'on demand') ?? helpers[0])?.id ?? '';
  return (
    <div class="run-agent">
      <select aria-label={t('sidepanel_run_agent_label')} value={agentId} onInput={(event) => setChosen(event.currentTarget.value)}>
        {helpers.map((profile) => (
          <option key={profile.id} value={profile.id}>
            {profile.name}
          </option>
        ))}
      </select>
      <button type="button" class="small-button" onClick={() => props.onRun(agentId)}>
        {t('sidepanel_run_agent_button')}
      </button>
    </div>
  );
}
