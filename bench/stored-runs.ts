/**
 * A site with a user's history, for the browser benches: copies of the site's newest run (its record,
 * root invocation, history, files and journal) put into the extension's run store under new ids, one
 * minute apart and older than any turn the bench makes, each of one of 40 other chats. A user who
 * chats every day has hundreds; the turn's reads that grow with them show only with them.
 *
 * A source text for the options page (a function would carry the bundler's helpers, which the page
 * does not have). The page gives back how many records each run's copy holds.
 */
export function copyNewestRunSource(origin: string, copies: number): string {
  return `(async () => {
    const origin = ${JSON.stringify(origin)};
    const copies = ${JSON.stringify(copies)};
    const stores = ['runs', 'invocations', 'tasks', 'files', 'journal', 'messages'];
    const database = await new Promise((resolve, reject) => {
      const request = indexedDB.open('retinue-runs');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const reading = database.transaction(stores, 'readonly');
    const all = {};
    await Promise.all(stores.map((name) => new Promise((resolve, reject) => {
      const request = reading.objectStore(name).getAll();
      request.onsuccess = () => { all[name] = request.result; resolve(); };
      request.onerror = () => reject(request.error);
    })));
    const template = all.runs.filter((run) => run.origin === origin).sort((left, right) => right.createdAt - left.createdAt)[0];
    if (!template) throw new Error('The site has no run to copy: make a turn first.');
    const own = {};
    for (const name of stores.slice(1)) own[name] = all[name].filter((record) => record.runId === template.id);
    const oldest = Math.min(...all.runs.map((run) => run.createdAt));
    const writing = database.transaction(stores, 'readwrite');
    for (let copy = 0; copy < copies; copy += 1) {
      const runId = 'stored-run-' + copy;
      const renamed = (id) => id + '-copy-' + copy;
      const createdAt = oldest - (copy + 1) * 60000;
      const chat = template.chat ? { chat: { ...template.chat, conversationId: 'stored-chat-' + (copy % 40) } } : {};
      writing.objectStore('runs').put({ ...template, ...chat, id: runId, rootInvocationId: renamed(template.rootInvocationId), createdAt, endedAt: createdAt + 2000 });
      for (const record of own.invocations) {
        const parent = record.parentInvocationId ? { parentInvocationId: renamed(record.parentInvocationId) } : {};
        writing.objectStore('invocations').put({ ...record, ...parent, id: renamed(record.id), runId });
      }
      for (const record of own.tasks) writing.objectStore('tasks').put({ ...record, id: renamed(record.id), runId });
      for (const record of own.files) writing.objectStore('files').put({ ...record, runId });
      for (const record of own.journal) writing.objectStore('journal').put({ ...record, runId, ...(record.invocationId ? { invocationId: renamed(record.invocationId) } : {}) });
      for (const record of own.messages) writing.objectStore('messages').put({ ...record, runId, invocationId: renamed(record.invocationId) });
    }
    await new Promise((resolve, reject) => {
      writing.oncomplete = () => resolve();
      writing.onerror = () => reject(writing.error);
    });
    database.close();
    return { invocations: own.invocations.length, messages: own.messages.length, files: own.files.length, journal: own.journal.length };
  })()`;
}
