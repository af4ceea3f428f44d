import { useState } from 'preact/hooks';
import { resolveProfiles } from '../../profiles/built-in-profiles';
import type { JournalEvent } from '../../records/journal';
import { endedWithReply, type AgentRun } from '../../records/run';
import type { Settings } from '../../settings/schema';
import { t } from '../ui-text';

/** The profile that writes this run's reply, as its `run-start` event names it. */
function writerOf(journal: readonly JournalEvent[]): string | undefined {
  for (const event of journal) if (event.type === 'run-start') return event.data.rootProfileId;
  return undefined;
}

/**
 * What the Run button does for the shown run: `in-turn` while it works (the helper is a task of the
 * writer), `between-turns` on the conversation's latest run once it ended with its reply and no run
 * works on the site (the run is taken up again; the result reaches the next turn), else nothing.
 */
export function runButtonMode(run: AgentRun, siteRuns: readonly AgentRun[]): 'in-turn' | 'between-turns' | 'none' {
  if (run.status === 'running') return 'in-turn';
  if (!endedWithReply(run) || run.reply === undefined || !run.chat) return 'none';
  const conversationId = run.chat.conversationId;
  const others = siteRuns.filter((other) => other.id !== run.id && other.origin === run.origin);
  if (others.some((other) => other.status === 'running')) return 'none';
  return others.some((other) => other.chat?.conversationId === conversationId && other.createdAt > run.createdAt) ? 'none' : 'between-turns';
}

/**
 * The Run button (issue 25, `on demand` helpers and any other): starts a helper on the shown run, in
 * the turn while it works, or between turns on the turn that ended (see `runButtonMode`).
 */
export function RunAgentButton(props: { run: AgentRun; siteRuns: readonly AgentRun[]; journal: readonly JournalEvent[]; settings: Settings | undefined; onRun: (agentId: string) => void }) {
  const [chosen, setChosen] = useState('');
  const mode = runButtonMode(props.run, props.siteRuns);
  if (mode === 'none' || !props.settings) return null;
  const writer = writerOf(props.journal);
  const helpers = resolveProfiles(props.settings).filter((profile) => profile.id !== writer && profile.id !== props.settings?.defaults.rootProfileId);
  if (helpers.length === 0) return null;
  const agentId = helpers.some((profile) => profile.id === chosen) ? chosen : (helpers.find((profile) => profile.runs === 'on demand') ?? helpers[0])?.id ?? '';
  return (
    <div class="run-agent" data-mode={mode}>
      <select aria-label={t(mode === 'in-turn' ? 'sidepanel_run_agent_label' : 'sidepanel_run_agent_between_label')} value={agentId} onInput={(event) => setChosen(event.currentTarget.value)}>
        {helpers.map((profile) => (
          <option key={profile.id} value={profile.id}>
            {profile.name}
          </option>
        ))}
      </select>
      <button type="button" class="small-button" title={mode === 'between-turns' ? t('sidepanel_run_agent_between_hint') : undefined} onClick={() => props.onRun(agentId)}>
        {t('sidepanel_run_agent_button')}
      </button>
    </div>
  );
}
