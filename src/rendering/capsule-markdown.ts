import { resolveChildArtifactPath } from '../workspace/child-view';
import type { ResultCapsule } from '../records/capsule';
import { bulletList, capText } from './markdown-rendering';

/** How many characters of a capsule a parent gets in a tool result (DESIGN.md section 11). */
export const CAPSULE_CHAR_CAP = 8_000;

/** The folder holding a task's notes and `result.md`, as the root (and sibling agents) see it. */
export function taskNotesFolder(workspaceKey: string): string {
  return `summaries/agents/${workspaceKey}/`;
}

/**
 * Turns a path as a child saw it (its virtual view) into the same file as the root and sibling
 * agents see it, so a capsule's artifact list is usable by whoever reads it.
 */
export function childPathForReaders(workspaceKey: string, childPath: string): string {
  try {
    return resolveChildArtifactPath(workspaceKey, childPath).physicalPath;
  } catch {
    return childPath;
  }
}

function section(title: string, items: readonly string[]): string[] {
  return items.length === 0 ? [] : [`**${title}**`, bulletList(items), ''];
}

/**
 * The body of a capsule in markdown: what a reader can act on, no runtime ids, no physical paths.
 * `readerPath` turns a file's path as the capsule names it into the path its reader opens (by
 * default the child's path as the root and sibling agents see it).
 */
export function renderCapsuleBody(capsule: ResultCapsule, readerPath = (path: string) => childPathForReaders(capsule.workspaceKey, path)): string {
  const artifacts = capsule.artifacts.map((artifact) => {
    const details = [artifact.kind, artifact.role].filter((part): part is string => Boolean(part));
    const path = readerPath(artifact.path);
    return details.length === 0 ? `\`${path}\`` : `\`${path}\` — ${details.join(', ')}`;
  });
  const lines = [
    '**Summary**',
    capsule.summary.trim() === '' ? '(no summary given)' : capsule.summary.trim(),
    '',
    ...section('Findings', capsule.findings),
    ...section('Warnings', capsule.warnings),
    ...section('Suggested next actions', capsule.suggestedNextActions),
    ...section('Questions for you', capsule.questionsForCaller),
    ...section('Files', artifacts),
  ];
  if (capsule.confidence) lines.push(`**Confidence**: ${capsule.confidence}`, '');
  return lines.join('\n').trimEnd();
}

function statusLabel(capsule: ResultCapsule): string {
  return capsule.status === 'partial' ? 'partial result' : capsule.status;
}

/**
 * The capsule as a parent reads it in `agent.await`: a heading with the task's name, capped at
 * `maxChars` with a pointer to the full notes.
 * @example renderCapsuleForParent(capsule) // "### scene-critic — completed\n_Critique the duel_\n\n**Summary** ..."
 */
export function renderCapsuleForParent(capsule: ResultCapsule, maxChars = CAPSULE_CHAR_CAP): string {
  const full = [
    `### ${capsule.workspaceKey} — ${statusLabel(capsule)}`,
    `_${capsule.title}_`,
    '',
    renderCapsuleBody(capsule),
    '',
    `Notes and the full result: \`${taskNotesFolder(capsule.workspaceKey)}\``,
  ].join('\n');
  if (full.length <= maxChars) return full;
  // Formatting a number builds a locale formatter: only for a capsule that is cut.
  const note = `… (cut at ${maxChars.toLocaleString('en-US')} characters; read \`${taskNotesFolder(capsule.workspaceKey)}result.md\` for the rest)`;
  return capText(full, maxChars, note);
}

/** `summaries/agents/<key>/result.md`: the whole result, for the root and sibling agents. */
export function renderResultFile(capsule: ResultCapsule, readerPath?: (path: string) => string): string {
  return [
    `# ${capsule.title}`,
    '',
    `Agent: ${capsule.agentId} · Task: ${capsule.workspaceKey} · Status: ${statusLabel(capsule)}`,
    '',
    renderCapsuleBody(capsule, readerPath),
    '',
  ].join('\n');
}
