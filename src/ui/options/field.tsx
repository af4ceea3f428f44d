import type { ComponentChildren } from 'preact';

export interface FieldProps {
  /** Unique id of the control inside; the label and the error point at it. */
  id: string;
  label: string;
  /** A problem with this field, shown right under it. */
  error?: string;
  hint?: ComponentChildren;
  children: ComponentChildren;
}

/** A labelled form control with its hint and its error next to it. */
export function Field({ id, label, error, hint, children }: FieldProps) {
  return (
    <div class={`field${error ? ' has-error' : ''}`}>
      <label for={id}>{label}</label>
      {children}
      {hint && (
        <p class="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** The aria attributes a control inside a {@link Field} needs. */
export function describedBy(id: string, error: string | undefined, hasHint = false) {
  const ids = [hasHint ? `${id}-hint` : undefined, error ? `${id}-error` : undefined].filter(Boolean).join(' ');
  return { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': ids || undefined } as const;
}

/** Issues keyed by their path (`budget.maxRounds`), so each field finds its own. */
export function issuesByPath(issues: ReadonlyArray<{ path: string; message: string }>): Record<string, string> {
  const byPath: Record<string, string> = {};
  for (const issue of issues) byPath[issue.path] ??= issue.message;
  return byPath;
}
