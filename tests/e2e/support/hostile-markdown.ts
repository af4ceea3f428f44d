/**
 * A hostile task result and what the side panel must make of it, for the Chromium and Firefox
 * side-panel tests. The functions run inside the extension page (`page.evaluate`), so they are
 * self-contained.
 */

export const HOSTILE_RESULT = [
  '# Hostile result',
  '',
  'Text before. <script>window.hacked = 1</script>',
  '<img src="http://127.0.0.1:1/tracker.png" alt="tracker" onerror="window.hacked = 2">',
  '[bad link](javascript:window.hacked=3) and [good link](https://example.com/docs)',
  '<div onclick="window.hacked = 4">click me</div>',
  '',
  // Only DOMPurify stops these two (its SAFE_FOR_XML rules): harmless while the nodes stay nodes, a
  // script the moment anything serialises the result into HTML again. The allow-list pass alone keeps
  // both, so they tell whether DOMPurify really ran.
  '<!-- </p><img src=x onerror="window.hacked = 5"> -->',
  '<span title="</style><img src=x onerror=window.hacked=6>">styled</span>',
].join('\n');

export interface HostileFindings {
  scripts: number;
  images: number;
  handlers: string[];
  hrefs: Array<Array<string | null>>;
  markupInComments: string[];
  breakoutAttributes: string[];
  hacked: number | undefined;
}

export const SANITISED_FINDINGS: HostileFindings = {
  scripts: 0,
  images: 0,
  handlers: [],
  hrefs: [
    ['http://127.0.0.1:1/tracker.png', 'noopener noreferrer', '_blank'],
    [null, 'noopener noreferrer', '_blank'],
    ['https://example.com/docs', 'noopener noreferrer', '_blank'],
  ],
  markupInComments: [],
  breakoutAttributes: [],
  hacked: undefined,
};

/** Writes one workspace file straight into the extension's run store (IndexedDB `files`). */
export async function putWorkspaceFile(file: { runId: string; path: string; content: string }): Promise<void> {
  const database = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open('retinue-runs');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  await new Promise<void>((resolve, reject) => {
    const transaction = database.transaction('files', 'readwrite');
    transaction.objectStore('files').put({ ...file, updatedAt: Date.now() });
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
  });
  database.close();
}

/** What the rendered result of the task row at `rowIndex` holds that it must not. */
export function readHostileFindings(rowIndex: number): HostileFindings {
  const body = document.querySelectorAll('.task-row')[rowIndex]?.querySelector('.markdown-body');
  if (!body) throw new Error(`task row ${rowIndex} shows no rendered result`);
  const elements = Array.from(body.querySelectorAll('*'));
  const comments: string[] = [];
  const walker = document.createTreeWalker(body, NodeFilter.SHOW_COMMENT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) comments.push(node.nodeValue ?? '');
  return {
    scripts: body.querySelectorAll('script').length,
    images: body.querySelectorAll('img').length,
    handlers: elements.flatMap((node) => Array.from(node.attributes).filter((attribute) => attribute.name.startsWith('on')).map((attribute) => attribute.name)),
    hrefs: Array.from(body.querySelectorAll('a')).map((anchor) => [anchor.getAttribute('href'), anchor.getAttribute('rel'), anchor.getAttribute('target')]),
    markupInComments: comments.filter((text) => /<[/\w]/.test(text)),
    breakoutAttributes: elements.flatMap((node) => Array.from(node.attributes).filter((attribute) => /<\/(style|script|title|textarea)/i.test(attribute.value)).map((attribute) => attribute.name)),
    hacked: (window as { hacked?: number }).hacked,
  };
}
