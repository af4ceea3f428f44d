/** Isolated-world bridge between the page hook and the background. Registered with the page hook. */
export default defineContentScript({
  matches: ['http://127.0.0.1/*'],
  runAt: 'document_start',
  registration: 'runtime',
  main() {},
});
