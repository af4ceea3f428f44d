import type { ResultCapsule } from '../../records/capsule';

function section(heading: string, items: readonly string[]): string {
  if (items.length === 0) return '';
  return `\n### ${heading}\n\n${items.map((item) => `- ${item}`).join('\n')}\n`;
}

/** A result capsule as a markdown document (for display when no result.md exists, and for export). */
export function capsuleToMarkdown(capsule: ResultCapsule): string {
  const confidence = capsule.confidence ? `, confidence ${capsule.confidence}` : '';
  const artifacts = capsule.artifacts.map(
    (artifact) => `\`${artifact.path}\`${artifact.kind ? ` (${artifact.kind})` : ''}${artifact.role ? ` — ${artifact.role}` : ''}`,
  );
  return [
    `## ${capsule.title} — ${capsule.agentId} (${capsule.status}${confidence})\n\n${capsule.summary}\n`,
    section('Findings', capsule.findings),
    section('Warnings', capsule.warnings),
    section('Suggested next actions', capsule.suggestedNextActions),
    section('Questions for the caller', capsule.questionsForCaller),
    section('Artifacts', artifacts),
  ].join('');
}
