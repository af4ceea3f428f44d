/** An on/off switch: a real checkbox with `role="switch"`, so keyboards and screen readers know it. */
export function SwitchControl({ label, checked, disabled, onChange }: { label: string; checked: boolean; disabled?: boolean; onChange(next: boolean): void }) {
  return (
    <label class="switch-control">
      <input type="checkbox" role="switch" checked={checked} disabled={disabled} aria-checked={checked} onChange={(event) => onChange(event.currentTarget.checked)} />
      <span class="switch-track" aria-hidden="true" />
      <span>{label}</span>
    </label>
  );
}
