import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * Rows drawn at first, and drawn more at a time: about a side panel's height of task rows. The rest
 * are drawn as the list's end nears the viewport (a screen ahead) or when the user asks, so a run
 * with 50 tasks opens about as fast as one with 12, and a row once drawn stays drawn.
 */
export const ROWS_PER_PAGE = 12;

/** The list's end starts drawing more this far (a screen) before it scrolls into view. */
const NEAR_MARGIN = '100% 0px';

export interface ShownRows {
  /** How many rows (in the order they show) are drawn. */
  shown: number;
  /** Draws the next page of rows; asked by the user, focus then moves to the first of them. */
  showMore(askedByUser: boolean): void;
}

/**
 * How many of `total` rows are drawn: a page at first, a page more each time `showMore` is called.
 * `focusable` selects each row's first control inside `list`, in the rows' order.
 */
export function useShownRows(total: number, list: RefObject<HTMLElement | null>, focusable: string): ShownRows {
  const [shown, setShown] = useState(ROWS_PER_PAGE);
  const focusRow = useRef<number | undefined>(undefined);
  useEffect(() => {
    const row = focusRow.current;
    focusRow.current = undefined;
    if (row !== undefined) list.current?.querySelectorAll<HTMLElement>(focusable)[row]?.focus();
  }, [shown]);
  return {
    shown: Math.min(shown, total),
    showMore(askedByUser) {
      // From the count as it is when the update applies: an observer's late report must not draw fewer.
      setShown((count) => {
        const from = Math.min(count, total);
        if (askedByUser) focusRow.current = from;
        return from + ROWS_PER_PAGE;
      });
    },
  };
}

export interface MoreRowsProps {
  /** The button's words, with the number of rows not drawn yet. */
  label: string;
  /** Class of the list item, so each list styles its own. */
  class: string;
  /** Changes each time more rows are drawn, so the observer looks again. */
  shown: number;
  showMore(askedByUser: boolean): void;
}

/**
 * The last item of a list not drawn in full: a button that draws the next page (focus moves to its
 * first row, so a keyboard reaches every row), which the browser also presses when the item nears
 * the viewport.
 */
export function MoreRows({ label, class: className, shown, showMore }: MoreRowsProps) {
  const item = useRef<HTMLLIElement>(null);
  useEffect(() => {
    const element = item.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && showMore(false), { rootMargin: NEAR_MARGIN });
    observer.observe(element);
    return () => observer.disconnect();
  }, [shown]);
  return (
    <li ref={item} class={className}>
      <button type="button" class="link-button" onClick={() => showMore(true)}>
        {label}
      </button>
    </li>
  );
}
