/**
 * What overlaps or sticks out in the side panel's rows, read in the page (passed to `evaluate`, so
 * it is self-contained): in each row, every pair of its visible parts (agent name, title, status
 * badge, buttons...) must not cover each other, and each must stay inside its row; nothing may run past
 * the panel's right edge. A narrow panel
 * (Firefox opened one 232 px wide) must wrap or truncate rather than lay the badge over the name.
 * Returns one line per problem, none when the layout holds.
 */
export function readNarrowLayoutProblems(): string[] {
  const rows: Array<{ row: string; parts: string }> = [
    { row: '.task-head', parts: '.task-agent, .task-title, .status-badge, .review-mark, .small-button' },
    { row: '.history-row', parts: '.history-title, .history-meta, .status-badge, .small-button' },
    { row: '.run-head', parts: '.run-title, .status-badge' },
    { row: '.history-head', parts: 'h2, .segmented button' },
  ];
  const problems: string[] = [];
  const describe = (element: Element) => `${element.className || element.tagName.toLowerCase()} “${(element.textContent ?? '').trim().slice(0, 30)}”`;
  for (const { row, parts } of rows) {
    for (const rowElement of Array.from(document.querySelectorAll(row))) {
      const rowBox = rowElement.getBoundingClientRect();
      const boxes = Array.from(rowElement.querySelectorAll(parts))
        .map((element) => ({ element, box: element.getBoundingClientRect() }))
        .filter(({ box }) => box.width > 0 && box.height > 0);
      for (const { element, box } of boxes) {
        if (box.left < rowBox.left - 0.5 || box.right > rowBox.right + 0.5) problems.push(`${row}: ${describe(element)} sticks out of its row (${Math.round(box.left)}–${Math.round(box.right)} in ${Math.round(rowBox.left)}–${Math.round(rowBox.right)})`);
      }
      for (let first = 0; first < boxes.length; first += 1) {
        for (let second = first + 1; second < boxes.length; second += 1) {
          const a = boxes[first]!;
          const b = boxes[second]!;
          if (a.element.contains(b.element) || b.element.contains(a.element)) continue;
          const across = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
          const down = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
          if (across > 0.5 && down > 0.5) problems.push(`${row}: ${describe(b.element)} covers ${describe(a.element)}`);
        }
      }
    }
  }
  // Anything past the panel's right edge is cut off, unless a box of its own clips or scrolls it.
  const panel = document.querySelector('.side-panel');
  const panelRight = panel?.getBoundingClientRect().right ?? document.documentElement.clientWidth;
  const clipped = (element: Element): boolean => {
    for (let parent = element.parentElement; parent && parent !== panel; parent = parent.parentElement) {
      if (getComputedStyle(parent).overflowX !== 'visible') return true;
    }
    return false;
  };
  const cut = Array.from(panel?.querySelectorAll('*') ?? [])
    .filter((element) => element.children.length === 0 && !element.closest('.visually-hidden'))
    .filter((element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.right > panelRight + 0.5 && !clipped(element);
    });
  for (const element of cut.slice(0, 5)) problems.push(`${describe(element)} is cut off at the panel’s right edge`);
  const page = document.documentElement;
  if (page.scrollWidth > page.clientWidth + 1) problems.push(`the panel scrolls sideways: ${page.scrollWidth} px of content in ${page.clientWidth} px`);
  return problems;
}
