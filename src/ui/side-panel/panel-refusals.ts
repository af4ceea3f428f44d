import { t, type UiMessageKey } from '../ui-text';
import { panelNoticeText } from './panel-notice-text';

/** The Run button's refusals the panel words in the browser's language (the background's codes). */
const RUN_AGENT_REFUSALS: Readonly<Record<string, UiMessageKey>> = {
  'run-agent-no-reply': 'sidepanel_refusal_run_agent_no_reply',
  'run-agent-no-chat': 'sidepanel_refusal_run_agent_no_chat',
  'run-agent-site-busy': 'sidepanel_refusal_run_agent_site_busy',
  'run-agent-not-latest': 'sidepanel_refusal_run_agent_not_latest',
  'run-agent-already': 'sidepanel_refusal_run_agent_already',
  'run-agent-no-page': 'sidepanel_refusal_run_agent_no_page',
  'run-agent-no-answer': 'sidepanel_refusal_run_agent_no_answer',
};

/**
 * What the panel shows for a refusal from the background: its own words for a code it knows (a
 * limit's refusal keeps the limit's words inside), else the translation kept for its code in a
 * language other than English (panel-notice-text.ts), else the background's message as it came.
 */
export function panelRefusalText(code: string, message: string): string {
  if (code === 'run-agent-refused') return t('sidepanel_refusal_run_agent_refused', message);
  const key = RUN_AGENT_REFUSALS[code];
  return key ? t(key) : panelNoticeText(code, message);
}
