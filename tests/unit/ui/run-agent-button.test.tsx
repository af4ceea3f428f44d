// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolveProfiles } from '../../../src/profiles/built-in-profiles';
import type { AgentRun } from '../../../src/records/run';
import { settingsSchema } from '../../../src/settings/schema';
import { panelRefusalText } from '../../../src/ui/side-panel/panel-refusals';
import { RunAgentButton, runButtonMode } from '../../../src/ui/side-panel/run-agent-button';
import { buildRun } from '../../support/record-builders';
import { installEnglishMessages } from '../../support/english-messages';

beforeAll(installEnglishMessages);
afterEach(cleanup);

// The side panel's Run button (issue 25): in the turn while it works, and between turns on the
// conversation's latest run once it replied, with nothing working on the site.
const chat = { conversationId: 'chat-1', historyKey: 'key-1', basis: 'page' } as unknown as AgentRun['chat'];
const ended = buildRun({ id: 'latest', status: 'completed', reply: 'The duke yields.', endedAt: 2_000, createdAt: 1_000, chat });
const settings = settingsSchema.parse({ version: 1 });

describe('the Run button’s state', () => {
  it('works in the turn while the run works, and between turns on the latest run that replied', () => {
    expect(runButtonMode(buildRun({ status: 'running' }), [])).toBe('in-turn');
    expect(runButtonMode(ended, [ended])).toBe('between-turns');
    // A reply that went out early, then helpers ended: still the turn's reply.
    expect(runButtonMode({ ...ended, status: 'interrupted', repliedAt: 1_500 }, [])).toBe('between-turns');
  });

  it('offers nothing on a turn without a reply, on an older turn of the conversation, or while the site writes another turn', () => {
    expect(runButtonMode({ ...ended, status: 'failed', fallback: { code: 'empty-answer', reason: 'Empty.' } }, [])).toBe('none');
    expect(runButtonMode({ ...ended, status: 'cancelled' }, [])).toBe('none');
    const newer = buildRun({ id: 'newer', status: 'completed', reply: 'Later.', createdAt: 3_000, chat });
    expect(runButtonMode(ended, [newer, ended])).toBe('none');
    const otherChat = buildRun({ id: 'other', status: 'completed', createdAt: 3_000, chat: { ...chat, conversationId: 'chat-2' } as AgentRun['chat'] });
    expect(runButtonMode(ended, [otherChat, ended])).toBe('between-turns');
    const writing = buildRun({ id: 'writing', status: 'running', createdAt: 3_000 });
    expect(runButtonMode(ended, [writing, ended])).toBe('none');
    const elsewhere = buildRun({ id: 'elsewhere', status: 'running', origin: 'http://127.0.0.1:9000', createdAt: 3_000 });
    expect(runButtonMode(ended, [elsewhere, ended])).toBe('between-turns');
  });

  it('between turns the button says it runs on the reply, and pressing it runs the chosen helper', () => {
    const ran: string[] = [];
    render(<RunAgentButton run={ended} siteRuns={[ended]} journal={[]} settings={settings} onRun={(agentId) => ran.push(agentId)} />);
    const helpers = resolveProfiles(settings).filter((profile) => profile.id !== settings.defaults.rootProfileId);
    const select = screen.getByLabelText('Run a helper on this turn’s reply') as HTMLSelectElement;
    fireEvent.input(select, { target: { value: helpers.at(-1)?.id } });
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    expect(ran).toEqual([helpers.at(-1)?.id]);
    expect(screen.getByRole('button', { name: 'Run' }).getAttribute('title')).toContain('its result goes to your next message');
  });

  it('is not shown on an older turn', () => {
    const newer = buildRun({ id: 'newer', status: 'completed', reply: 'Later.', createdAt: 3_000, chat });
    const { container } = render(<RunAgentButton run={ended} siteRuns={[newer, ended]} journal={[]} settings={settings} onRun={() => undefined} />);
    expect(container.querySelector('.run-agent')).toBeNull();
  });
});

describe('the Run button’s refusals', () => {
  it('are worded by the panel for the codes it knows; a limit keeps its words; others come as sent', () => {
    expect(panelRefusalText('run-agent-not-latest', 'ignored')).toBe('This conversation has a newer turn; open its latest run to run a helper on it.');
    expect(panelRefusalText('run-agent-refused', 'The run reached its limit of 1,000 tokens.')).toBe('A limit of this run allows no new helper now: The run reached its limit of 1,000 tokens.');
    expect(panelRefusalText('review-refused', 'Open the side panel.')).toBe('Open the side panel.');
  });
});
