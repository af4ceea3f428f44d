// First: zod must be jitless before any schema is built (no eval-like code at run time).
import '../../src/zod-jitless';
import { mountSidePanel } from '../../src/ui/side-panel/mount-side-panel';

void mountSidePanel(document.getElementById('app')!);
